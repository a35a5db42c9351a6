// svc.ingest_watchdog: resurrects job rows (ingest, distill, refine) whose worker stopped heartbeating for
// INGEST_JOB_STUCK_SECONDS: re-queued and re-enqueued, or failed once JOB_MAX_ATTEMPTS is spent. With
// STORAGE_BACKEND=s3 it also fails direct uploads nobody finalized in time and deletes their objects.
import { Type as T } from "@sinclair/typebox";
import { findStuckJobs, requeueJob, type JobRow } from "../../data/queries/jobs";
import { finishJobAnnounced } from "../../domain/webhooks/record-event";
import { listOrgIds } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";
import { withTenant } from "../../data/with-tenant";
import { expireAbandonedUploads } from "../../domain/ingest/expire-uploads";
import { defineTask } from "../define-task";
import { TASK_OF_KIND } from "./job-row-task";

const ROWS_PER_ORG_PER_RUN = 200;

export const ingestWatchdogTask = defineTask({
  name: "svc.ingest_watchdog",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 5000,
  run: async (_payload, deps) => {
    const { INGEST_JOB_STUCK_SECONDS: stuckSeconds, JOB_MAX_ATTEMPTS: maxAttempts } = deps.config;
    let requeued = 0;
    let failed = 0;
    let uploadsExpired = 0;
    for (const orgId of await withSystem(deps.db, listOrgIds)) {
      if (deps.storage.backend === "s3")
        uploadsExpired += await expireAbandonedUploads(deps, orgId);
      const resurrect = await withTenant(deps.db, orgId, async (tx) => {
        const again: JobRow[] = [];
        for (const row of await findStuckJobs(tx, stuckSeconds, ROWS_PER_ORG_PER_RUN)) {
          if (row.attempts >= maxAttempts) {
            await finishJobAnnounced(tx, orgId, row.job_id, "failed", {
              error: `abandoned by the watchdog after ${row.attempts} attempts without finishing`,
            });
            failed++;
          } else {
            await requeueJob(tx, row.job_id);
            again.push(row);
          }
        }
        return again;
      });
      for (const row of resurrect) {
        await deps.queue.enqueue(
          TASK_OF_KIND[row.kind],
          { org_id: orgId, job_id: row.job_id },
          { jobId: `${row.kind}-${row.job_id}` },
        );
        requeued++;
      }
    }
    return { requeued, failed, uploads_expired: uploadsExpired };
  },
});
