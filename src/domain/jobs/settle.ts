// Settling a job row: its final state, result or error, and the job.succeeded / job.failed event in
// the same transaction. A row that already finished stays as it is (a redelivery changes nothing).
import type { Database, Tx } from "../../data/pools";
import { finishJob, type FinishedJob, type JobKind } from "../../data/queries/jobs/jobs";
import { withTenant } from "../../data/with-tenant";
import { recordEvent } from "../webhooks/record-event";
import { claimJob, createJob } from "./claim";

export type JobOutcome = { result?: Record<string, unknown>; error?: string };
export type FinalState = "succeeded" | "failed" | "rejected";

/**
 * Finishes and announces the row (failed and rejected rows as job.failed); null when already done.
 */
export async function settleJob(
  tx: Tx,
  orgId: string,
  jobId: string,
  state: FinalState,
  outcome: JobOutcome,
): Promise<FinishedJob | null> {
  const finished = await finishJob(tx, jobId, state, outcome);
  if (!finished) return null;
  await recordEvent(tx, orgId, state === "succeeded" ? "job.succeeded" : "job.failed", {
    job_id: finished.job_id,
    kind: finished.kind,
    state,
    agent_id: finished.agent_id,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  });
  return finished;
}

/** For a kind that announces its end with an event of its own (erasure: subject.erased). */
export const settleJobSilently = (
  tx: Tx,
  jobId: string,
  state: FinalState,
  outcome: JobOutcome,
): Promise<FinishedJob | null> => finishJob(tx, jobId, state, outcome);

/** A delivery for a kind this server has switched off: the row ends `rejected` with the reason. */
export async function rejectDisabledJob(
  db: Database,
  orgId: string,
  jobId: string,
  kind: JobKind,
  variable: string,
): Promise<Record<string, unknown>> {
  return withTenant(db, orgId, async (tx) => {
    await createJob(tx, orgId, jobId, kind, {});
    if ((await claimJob(tx, jobId)) === null) return { job_id: jobId, state: "already-finished" };
    const reason = `${kind} is disabled on this server (${variable}=false)`;
    await settleJob(tx, orgId, jobId, "rejected", { error: reason });
    return { job_id: jobId, state: "rejected", reason };
  });
}
