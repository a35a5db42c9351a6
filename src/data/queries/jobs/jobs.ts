// Job rows (ingest, distill, refine, erasure): the SQL of their life cycle. Only src/domain/jobs/
// calls it: claim, heartbeat and progress, settle, and the watchdog's requeue.
import type { Tx } from "../../pools";

export type JobKind = "ingest" | "distill" | "refine" | "erasure";
export type JobState =
  | "queued"
  | "running"
  | "succeeded"
  | "failed"
  | "rejected"
  | "awaiting_upload";

export type JobRow = {
  org_id: string;
  job_id: string;
  kind: JobKind;
  state: JobState;
  attempts: number;
  payload: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
  progress: Record<string, unknown>;
  parent_job_id: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  heartbeat_at: Date | null;
  finished_at: Date | null;
};

/** Idempotent: a redelivered creation keeps the first row. */
export async function insertJob(
  tx: Tx,
  orgId: string,
  jobId: string,
  kind: JobKind,
  payload: Record<string, unknown>,
): Promise<JobRow> {
  await tx`INSERT INTO jobs (org_id, job_id, kind, payload) VALUES (${orgId}, ${jobId}, ${kind}, ${tx.json(payload as never)})
           ON CONFLICT (org_id, job_id) DO NOTHING`;
  return (await findJob(tx, jobId))!;
}

export async function findJob(tx: Tx, jobId: string): Promise<JobRow | null> {
  const rows = await tx<JobRow[]>`SELECT * FROM jobs WHERE job_id = ${jobId}`;
  return rows[0] ?? null;
}

/**
 * Claims a queued (or resurrected) row; null when it already finished, so a redelivery changes
 * nothing.
 */
export async function startJob(tx: Tx, jobId: string): Promise<JobRow | null> {
  const rows = await tx<
    JobRow[]
  >`UPDATE jobs SET state = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()),
      heartbeat_at = now(), updated_at = now()
    WHERE job_id = ${jobId} AND state IN ('queued', 'running') RETURNING *`;
  return rows[0] ?? null;
}

/** Progress and heartbeat in the caller's transaction, so the counters match what committed. */
export async function saveJobProgress(
  tx: Tx,
  jobId: string,
  progress: Record<string, unknown>,
): Promise<void> {
  await tx`UPDATE jobs SET progress = ${tx.json(progress as never)}, heartbeat_at = now(),
    updated_at = now() WHERE job_id = ${jobId}`;
}

/** Proof of life plus the counters a poller sees; false when the row is no longer running. */
export async function heartbeatJob(
  tx: Tx,
  jobId: string,
  progress: Record<string, unknown>,
): Promise<boolean> {
  const rows = await tx`UPDATE jobs SET heartbeat_at = now(), updated_at = now(),
    progress = ${tx.json(progress as never)} WHERE job_id = ${jobId} AND state = 'running' RETURNING 1`;
  return rows.length === 1;
}

export type FinishedJob = { job_id: string; kind: JobKind; agent_id: string | null };

/** The finished row, or null when it had already finished (a redelivery changes nothing). */
export async function finishJob(
  tx: Tx,
  jobId: string,
  state: "succeeded" | "failed" | "rejected",
  outcome: { result?: Record<string, unknown>; error?: string },
): Promise<FinishedJob | null> {
  const rows = await tx<
    FinishedJob[]
  >`UPDATE jobs SET state = ${state}, result = ${outcome.result === undefined ? null : tx.json(outcome.result as never)},
      error = ${outcome.error ?? null}, finished_at = now(), updated_at = now()
    WHERE job_id = ${jobId} AND state IN ('queued', 'running') RETURNING job_id, kind, payload->>'agent_id' AS agent_id`;
  return rows[0] ?? null;
}

/**
 * Rows whose worker stopped heartbeating (or that never left the queue) for longer than
 * `stuckSeconds`.
 */
export async function findStuckJobs(
  tx: Tx,
  stuckSeconds: number,
  limit: number,
): Promise<JobRow[]> {
  return tx<JobRow[]>`SELECT * FROM jobs WHERE state IN ('queued', 'running')
    AND coalesce(heartbeat_at, updated_at) < now() - make_interval(secs => ${stuckSeconds})
    ORDER BY coalesce(heartbeat_at, updated_at) LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

/** Marks a stuck row as re-queued (fresh timestamps) so the next watchdog pass leaves it alone. */
export async function requeueJob(tx: Tx, jobId: string): Promise<void> {
  await tx`UPDATE jobs SET state = 'queued', heartbeat_at = NULL, updated_at = now() WHERE job_id = ${jobId}`;
}
