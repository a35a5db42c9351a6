// svc.ingest_watchdog: resurrects job rows (ingest, distill, refine, erasure) whose worker stopped
// heartbeating for INGEST_JOB_STUCK_SECONDS: re-queued and re-enqueued, or failed once
// JOB_MAX_ATTEMPTS is spent (src/domain/jobs/requeue.ts). With STORAGE_BACKEND=s3 it also fails
// direct uploads nobody finalized in time and deletes their objects.
import { Type as T } from "@sinclair/typebox";
import { listOrgIds } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";
import { expireAbandonedUploads } from "../../domain/ingest/expire-uploads";
import { requeueStuckJobs } from "../../domain/jobs/requeue";
import { defineTask } from "../define-task";
import { TASK_OF_KIND } from "../job-kinds";

const ROWS_PER_ORG_PER_RUN = 200;

export const ingestWatchdogTask = defineTask({
  name: "svc.ingest_watchdog",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 5000,
  schedule: { id: "ingest-watchdog", everyMs: () => 5 * 60_000 },
  run: async (_payload, deps) => {
    let requeued = 0;
    let failed = 0;
    let uploadsExpired = 0;
    for (const orgId of await withSystem(deps.db, listOrgIds)) {
      if (deps.storage.backend === "s3")
        uploadsExpired += await expireAbandonedUploads(deps, orgId);
      const stuck = await requeueStuckJobs(deps, orgId, ROWS_PER_ORG_PER_RUN);
      failed += stuck.failed;
      for (const row of stuck.requeued) {
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
