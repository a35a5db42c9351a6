// GET /v1/distill/{job_id}: the job row as a client reads it — state, progress, counts, what was
// skipped and why — from jobs.progress while it runs and jobs.result once it is settled.
import { readJob } from "../../jobs/claim";
import type { Database } from "../../../data/pools";
import { withTenantRead } from "../../../data/with-tenant";
import type { Actor } from "../../actor";
import { notFound } from "../../../lib/errors";
import { looksLikeId } from "../../../lib/ids";
import { countsFrom, type DistillCounts } from "./counts";
import type { DistillReport } from "./run";

/** A distill job's states (jobs.state; `awaiting_upload` belongs to ingest jobs only). */
export type DistillState = "queued" | "running" | "succeeded" | "failed" | "rejected";

export type DistillStatus = {
  job_id: string;
  state: DistillState;
  agent_id: string | null;
  parent_job_id: string | null;
  attempts: number;
  progress: { done: number; total: number | null };
  counts: DistillCounts;
  memories: DistillReport["memories"] | null;
  extractor: string | null;
  warnings: string[];
  errors: DistillReport["errors"];
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
};

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

export async function readDistillJob(
  db: Database,
  actor: Actor,
  jobId: string,
): Promise<DistillStatus> {
  const row = looksLikeId("job", jobId)
    ? await withTenantRead(db, actor.orgId, (tx) => readJob(tx, jobId))
    : null;
  if (!row || row.kind !== "distill") throw notFound(`Distill job ${jobId}`);
  const report = (
    row.result && Object.keys(row.result).length > 0 ? row.result : row.progress
  ) as Partial<DistillReport>;
  const planned = typeof report.total === "number";
  return {
    job_id: row.job_id,
    state: row.state as DistillState,
    agent_id: typeof row.payload.agent_id === "string" ? row.payload.agent_id : null,
    parent_job_id: row.parent_job_id,
    attempts: row.attempts,
    progress: {
      done: planned ? Number(report.done ?? 0) : 0,
      total: planned ? report.total! : null,
    },
    counts: countsFrom(report.counts),
    memories: planned && report.memories ? report.memories : null,
    extractor: typeof report.extractor === "string" ? report.extractor : null,
    warnings: strings(report.warnings),
    errors: Array.isArray(report.errors) ? report.errors : [],
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    updated_at: row.updated_at,
  };
}
