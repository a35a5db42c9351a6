// The discovery job of a web-search batch: ask the provider once, then record its results and
// create one URL ingest job per result in a single transaction (child ids are stored with the
// results, so a retry after a kill -9 re-enqueues the same children and never creates more). Each
// child fetches through the same SSRF-safe path as POST /v1/ingest: a result on a private address
// fails that child, not the batch.
import type { Ports } from "../../ports/ports";
import {
  findBatch,
  recordDiscovery,
  type BatchResult,
  type IngestBatchRow,
} from "../../../data/queries/ingest/batches";
import { settleJob } from "../../jobs/settle";
import { withTenant } from "../../../data/with-tenant";
import { WebSearchError, type WebSearchHit } from "../../../providers/websearch/port";
import type { Actor } from "../../actor";
import { recordAudit } from "../../audit/record";
import { AppError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { IngestFailure, type IngestPayload } from "../payload";
import { enqueueIngest, insertJobWithAudit } from "../submit";
import type { Heartbeat } from "../../jobs/heartbeat";

/** Why a result gets no child job (the URL is not one the fetcher could even try). */
function unusableUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return "only http and https URLs are ingested";
  return url.length > 2048 ? "longer than 2048 characters" : null;
}

function planResults(hits: WebSearchHit[], maxResults: number): BatchResult[] {
  const seen = new Set<string>();
  const results: BatchResult[] = [];
  for (const hit of hits) {
    if (results.length >= maxResults) break;
    const skipped =
      unusableUrl(hit.url) ?? (seen.has(hit.url) ? "duplicate of a higher-ranked result" : null);
    seen.add(hit.url);
    results.push({
      rank: results.length + 1,
      url: hit.url.slice(0, 2048),
      title: hit.title,
      job_id: skipped ? null : newId("job"),
      skipped,
    });
  }
  return results;
}

async function askProvider(
  deps: Pick<Ports, "websearch">,
  actor: Actor,
  batch: IngestBatchRow,
  signal: AbortSignal,
): Promise<WebSearchHit[]> {
  if (!deps.websearch)
    throw new IngestFailure(
      "search-failed",
      "web search is not configured on this server any more (WEBSEARCH_API_KEY)",
    );
  try {
    return await deps.websearch.search(batch.query, batch.max_results, {
      orgId: actor.orgId,
      signal,
    });
  } catch (error) {
    if (error instanceof WebSearchError) throw new IngestFailure("search-failed", error.message);
    if (error instanceof AppError && error.slug === "budget-exceeded")
      throw new IngestFailure("budget-exceeded", error.message);
    throw error;
  }
}

export async function discoverBatch(
  deps: Pick<Ports, "db" | "config" | "log" | "queue" | "websearch">,
  actor: Actor,
  jobId: string,
  payload: IngestPayload,
  heartbeat: Heartbeat,
): Promise<Record<string, unknown>> {
  const batchId = payload.batch_id;
  const batch = batchId
    ? await withTenant(deps.db, actor.orgId, (tx) => findBatch(tx, batchId))
    : null;
  if (!batch) throw new Error(`discovery job ${jobId} has no batch row`);
  heartbeat.progress = { stage: "searching" };
  await heartbeat.beat();
  const planned = batch.discovered_at
    ? batch.results
    : planResults(await askProvider(deps, actor, batch, heartbeat.signal), batch.max_results);
  const settled = await withTenant(deps.db, actor.orgId, async (tx) => {
    const current = (await findBatch(tx, batch.batch_id, true))!;
    const results = current.discovered_at ? current.results : planned;
    const children = results.filter((r) => r.job_id).length;
    const result = {
      batch_id: batch.batch_id,
      results: results.length,
      children,
      skipped: results.length - children,
      memory_count: 0,
      warnings: payload.warnings,
    };
    // First, so a row that is no longer this run's (the watchdog failed it) gets no children
    // either.
    if (!(await settleJob(tx, actor.orgId, jobId, "succeeded", { result }))) return null;
    if (!current.discovered_at) {
      await recordDiscovery(tx, batch.batch_id, results);
      for (const r of results) {
        if (!r.job_id) continue;
        await insertJobWithAudit(tx, actor, {
          agentId: payload.agent_id,
          datasetId: payload.dataset_id,
          source: { kind: "url", url: r.url },
          jobId: r.job_id,
          batch: { batchId: batch.batch_id, rank: r.rank, ...(r.title ? { title: r.title } : {}) },
        });
      }
    }
    await recordAudit(tx, actor, {
      operation: "ingest",
      agentId: payload.agent_id,
      targetIds: [jobId],
      detail: {
        phase: "completed",
        state: "succeeded",
        batch_id: batch.batch_id,
        results: results.length,
        children,
      },
    });
    return results;
  }).catch((error) => {
    // insertJobWithAudit refuses a dataset deleted since the submission.
    throw error instanceof AppError && payload.dataset_id
      ? new IngestFailure(
          "dataset-deleted",
          "the dataset was deleted before the search results were ingested",
        )
      : error;
  });
  // Children are (re-)enqueued after the commit; their job ids make a repeated wake-up harmless.
  for (const r of settled ?? []) if (r.job_id) await enqueueIngest(deps, actor.orgId, r.job_id);
  return settled
    ? { batch_id: batch.batch_id, results: settled.length }
    : { job_id: jobId, state: "already-finished" };
}
