// What GET /v1/ingest/{job_id} shows: state, progress, the memories the document became, warnings,
// the failure reason and the chained distill job.
import { findIngestJob, type IngestJobRow } from "../../data/queries/ingest/jobs";
import {
  countStoredChunks,
  findSourceOfJob,
  sourceMemoryIds,
} from "../../data/queries/ingest/sources";
import type { Database, Tx } from "../../data/pools";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";
import type { IngestPayload } from "./payload";

/** A job view lists at most this many memory ids; memory_count has the total. */
export const JOB_MEMORY_IDS_MAX = 1000;

type JobResult = {
  source_id?: string | null;
  loader?: string | null;
  detected_type?: string | null;
  warnings?: string[];
  reason?: string;
  distill_job_id?: string | null;
  distill_skipped?: string | null;
  duplicate_of?: { source_id: string; job_id: string } | null;
};

/** The source as the client described it; posted text is summarised by its length, never echoed. */
function describeSource(payload: IngestPayload): Record<string, unknown> {
  const { source } = payload;
  if (source.kind === "text") return { kind: "text", chars: source.text.length };
  if (source.kind === "file" || source.kind === "upload") {
    // The storage key is the service's business, not the client's.
    const { object_key: _key, ...visible } = source;
    return visible;
  }
  return { ...source };
}

export async function ingestJobView(tx: Tx, row: IngestJobRow) {
  const payload = row.payload as IngestPayload;
  const result = (row.result ?? {}) as JobResult;
  const sourceId =
    result.duplicate_of?.source_id ??
    result.source_id ??
    (await findSourceOfJob(tx, row.job_id))?.source_id ??
    null;
  const ids = sourceId ? await sourceMemoryIds(tx, sourceId, JOB_MEMORY_IDS_MAX + 1) : [];
  const count =
    ids.length > JOB_MEMORY_IDS_MAX ? await countStoredChunks(tx, sourceId!) : ids.length;
  return {
    job_id: row.job_id,
    kind: "ingest" as const,
    state: row.state,
    agent_id: payload.agent_id,
    dataset_id: row.dataset_id,
    batch_id: row.batch_id,
    source: describeSource(payload),
    loader: result.loader ?? null,
    detected_type: result.detected_type ?? null,
    progress: row.progress ?? {},
    memory_ids: ids.slice(0, JOB_MEMORY_IDS_MAX),
    memory_count: count,
    warnings: result.warnings ?? payload.warnings ?? [],
    error: row.error,
    failure_reason: result.reason ?? null,
    duplicate_of: result.duplicate_of ?? null,
    distill_job_id: result.distill_job_id ?? null,
    distill_skipped: result.distill_skipped ?? null,
    attempts: row.attempts,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    updated_at: row.updated_at,
  };
}

export async function readIngestJob(db: Database, actor: Actor, jobId: string) {
  if (!looksLikeId("job", jobId)) throw notFound("Ingest job");
  return withTenantRead(db, actor.orgId, async (tx) => {
    const row = await findIngestJob(tx, jobId);
    if (!row) throw notFound("Ingest job");
    return ingestJobView(tx, row);
  });
}
