// Shared body of the tasks that advance a user-visible job row (ingest, distill, refine): claim the row
// and settle it. The pipelines themselves arrive with the Forge issue; until then an enabled gate still
// ends the row clearly as `rejected` with a reason instead of leaving it queued forever.
import { Type as T } from "@sinclair/typebox";
import type { Deps } from "../../app/deps";
import { insertJob, startJob, type JobKind } from "../../data/queries/jobs";
import { finishJobAnnounced } from "../../domain/webhooks/record-event";
import { withTenant } from "../../data/with-tenant";

export const JobRowPayload = T.Object(
  {
    org_id: T.String({ minLength: 1, maxLength: 100 }),
    job_id: T.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export async function settleJobRow(
  deps: Deps,
  payload: { org_id: string; job_id: string },
  kind: JobKind,
  gate: { enabled: boolean; variable: string },
): Promise<Record<string, unknown>> {
  const { org_id: orgId, job_id: jobId } = payload;
  return withTenant(deps.db, orgId, async (tx) => {
    await insertJob(tx, orgId, jobId, kind, {});
    if ((await startJob(tx, jobId)) === null) return { job_id: jobId, state: "already-finished" };
    const reason = gate.enabled
      ? `the ${kind} pipeline is not available in this release of the server`
      : `${kind} is disabled on this server (${gate.variable}=false)`;
    await finishJobAnnounced(tx, orgId, jobId, "rejected", { error: reason });
    return { job_id: jobId, state: "rejected", reason };
  });
}

/** Which task drives a job row of each kind (the watchdog re-enqueues through this). */
export const TASK_OF_KIND = {
  ingest: "svc.ingest_run",
  distill: "svc.forge_distill",
  refine: "svc.refine_run",
  erasure: "svc.erase_subject",
} as const;
