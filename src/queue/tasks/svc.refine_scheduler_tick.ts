// svc.refine_scheduler_tick: when REFINE_BEAT_INTERVAL_SECONDS > 0, creates a refine job row for each
// opted-in tenant that is due (oldest scheduled first) and enqueues svc.refine_run for it.
import { Type as T } from "@sinclair/typebox";
import { insertJob } from "../../data/queries/jobs";
import { claimDueRefineOrgs } from "../../data/queries/refine-schedule";
import { withSystem } from "../../data/with-system";
import { withTenant } from "../../data/with-tenant";
import { newId } from "../../domain/ids";
import { defineTask } from "../define-task";

/** Orgs scheduled per tick; the rest wait for the next tick, still oldest first. */
export const REFINE_ORGS_PER_TICK = 50;

export const refineSchedulerTickTask = defineTask({
  name: "svc.refine_scheduler_tick",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 5000,
  run: async (_payload, deps) => {
    const interval = deps.config.REFINE_BEAT_INTERVAL_SECONDS;
    if (interval <= 0) return { scheduled: 0, reason: "REFINE_BEAT_INTERVAL_SECONDS=0" };
    const orgIds = await withSystem(deps.db, (tx) => claimDueRefineOrgs(tx, interval, REFINE_ORGS_PER_TICK));
    for (const orgId of orgIds) {
      const jobId = newId("job");
      await withTenant(deps.db, orgId, (tx) => insertJob(tx, orgId, jobId, "refine", { trigger: "scheduler" }));
      // If this enqueue is lost, svc.ingest_watchdog finds the queued row and enqueues it again.
      await deps.queue.enqueue("svc.refine_run", { org_id: orgId, job_id: jobId }, { jobId: `refine-${jobId}` });
    }
    return { scheduled: orgIds.length, org_ids: orgIds };
  },
});
