// The watchdog's state machine for one tenant: a queued or running row nobody heartbeated for
// INGEST_JOB_STUCK_SECONDS goes back to `queued` (the caller re-enqueues it), or ends `failed` once
// JOB_MAX_ATTEMPTS deliveries claimed it. Rows are locked SKIP LOCKED, so two watchdogs split them.
import type { Config } from "../../config/schema";
import type { Database } from "../../data/pools";
import { findStuckJobs, requeueJob, type JobRow } from "../../data/queries/jobs/jobs";
import { withTenant } from "../../data/with-tenant";
import { settleJob } from "./settle";

export type RequeuePorts = {
  readonly db: Database;
  readonly config: Pick<Config, "INGEST_JOB_STUCK_SECONDS" | "JOB_MAX_ATTEMPTS">;
};

/** The rows put back in the queue (to wake), and how many were failed for good. */
export async function requeueStuckJobs(
  ports: RequeuePorts,
  orgId: string,
  limit: number,
): Promise<{ requeued: JobRow[]; failed: number }> {
  const { INGEST_JOB_STUCK_SECONDS: stuckSeconds, JOB_MAX_ATTEMPTS: maxAttempts } = ports.config;
  return withTenant(ports.db, orgId, async (tx) => {
    const requeued: JobRow[] = [];
    let failed = 0;
    for (const row of await findStuckJobs(tx, stuckSeconds, limit)) {
      if (row.attempts >= maxAttempts) {
        await settleJob(tx, orgId, row.job_id, "failed", {
          error: `abandoned by the watchdog after ${row.attempts} attempts without finishing`,
        });
        failed++;
      } else {
        await requeueJob(tx, row.job_id);
        requeued.push(row);
      }
    }
    return { requeued, failed };
  });
}
