// Creating, reading and claiming job rows: the one door ingest, distill, refine and erasure use.
import type { Tx } from "../../data/pools";
import {
  findJob,
  insertJob,
  startJob,
  type JobKind,
  type JobRow,
} from "../../data/queries/jobs/jobs";

export type { JobKind, JobRow, JobState } from "../../data/queries/jobs/jobs";

/** Idempotent: a redelivered creation keeps the first row. */
export const createJob = (
  tx: Tx,
  orgId: string,
  jobId: string,
  kind: JobKind,
  payload: Record<string, unknown>,
): Promise<JobRow> => insertJob(tx, orgId, jobId, kind, payload);

export const readJob = (tx: Tx, jobId: string): Promise<JobRow | null> => findJob(tx, jobId);

/**
 * Makes the row this delivery's: running, one more attempt, a fresh heartbeat. Null when it already
 * finished, so a redelivery changes nothing.
 */
export const claimJob = (tx: Tx, jobId: string): Promise<JobRow | null> => startJob(tx, jobId);
