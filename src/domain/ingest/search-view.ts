// What GET /v1/ingest/search/{batch_id} shows: the batch's state, derived from its discovery job
// and children, and each result the provider returned with its child job's state.
import { findBatch } from "../../data/queries/ingest/batches";
import { findIngestJob, listBatchJobs, type IngestJobRow } from "../../data/queries/ingest/jobs";
import type { Database } from "../../data/pools";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";

type ChildResult = { reason?: string; memory_count?: number };
const FINAL = new Set(["succeeded", "failed", "rejected"]);

function batchState(
  discovery: IngestJobRow | null,
  children: IngestJobRow[],
): "discovering" | "running" | "completed" | "failed" {
  if (!discovery || discovery.state === "queued" || discovery.state === "running")
    return "discovering";
  if (discovery.state !== "succeeded") return "failed";
  return children.every((c) => FINAL.has(c.state)) ? "completed" : "running";
}

export async function readSearchBatch(db: Database, actor: Actor, batchId: string) {
  if (!looksLikeId("batch", batchId)) throw notFound("Search batch");
  return withTenantRead(db, actor.orgId, async (tx) => {
    const batch = await findBatch(tx, batchId);
    if (!batch) throw notFound("Search batch");
    const discovery = await findIngestJob(tx, batch.discovery_job_id);
    const children = await listBatchJobs(tx, batchId);
    const byId = new Map(children.map((c) => [c.job_id, c]));
    const counts: Record<string, number> = {
      queued: 0,
      running: 0,
      succeeded: 0,
      failed: 0,
      rejected: 0,
    };
    for (const c of children) counts[c.state] = (counts[c.state] ?? 0) + 1;
    const discoveryResult = (discovery?.result ?? {}) as ChildResult;
    const state = batchState(discovery, children);
    return {
      batch_id: batch.batch_id,
      state,
      agent_id: batch.agent_id,
      dataset_id: batch.dataset_id,
      query: batch.query,
      max_results: batch.max_results,
      provider: batch.provider,
      discovery_job_id: batch.discovery_job_id,
      failure_reason:
        state === "failed" ? (discoveryResult.reason ?? discovery?.state ?? null) : null,
      error: state === "failed" ? (discovery?.error ?? null) : null,
      counts,
      results: batch.results.map((r) => {
        const child = r.job_id ? byId.get(r.job_id) : undefined;
        const result = (child?.result ?? {}) as ChildResult;
        return {
          rank: r.rank,
          url: r.url,
          title: r.title,
          job_id: r.job_id,
          skipped: r.skipped,
          state: child?.state ?? ("skipped" as const),
          failure_reason: result.reason ?? null,
          error: child?.error ?? null,
          memory_count: result.memory_count ?? 0,
        };
      }),
      created_at: batch.created_at,
      discovered_at: batch.discovered_at,
    };
  });
}
