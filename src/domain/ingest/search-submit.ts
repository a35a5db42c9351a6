// POST /v1/ingest/search: the batch row and its discovery job (an ingest job whose source is the
// query) commit together; the worker asks the web-search provider and fans out one URL job per
// result.
import type { Ports } from "../ports/ports";
import { insertBatch } from "../../data/queries/ingest/batches";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { nulProblems } from "../../lib/nul-free";
import { enqueueIngest, insertJobWithAudit } from "./submit";

export type SearchRequest = {
  agent_id: string;
  dataset_id?: string;
  query: string;
  max_results?: number;
};

export const SEARCH_DEFAULT_RESULTS = 5;
/** The most URLs one batch ingests (also Brave's per-request maximum). */
export const SEARCH_MAX_RESULTS = 20;

export async function submitSearch(
  deps: Pick<Ports, "db" | "queue" | "log" | "websearch">,
  actor: Actor,
  input: SearchRequest,
) {
  const problems = nulProblems(input, "");
  if (input.agent_id.trim() === "")
    problems.push({ path: "/agent_id", message: "must not be blank" });
  if (input.query.trim() === "")
    problems.push({ path: "/query", message: "must contain at least one non-space character" });
  if (problems.length > 0) throw validationFailed(problems);
  // The route exists only with a provider; this guards direct callers.
  if (!deps.websearch)
    throw new Error("submitSearch needs a web-search provider (WEBSEARCH_API_KEY)");
  const provider = deps.websearch.name;
  const query = input.query.trim();
  const maxResults = input.max_results ?? SEARCH_DEFAULT_RESULTS;
  const batchId = newId("batch");
  const datasetId = input.dataset_id ?? null;
  const row = await withTenant(deps.db, actor.orgId, async (tx) => {
    const row = await insertJobWithAudit(tx, actor, {
      agentId: input.agent_id,
      datasetId,
      source: { kind: "search", query, max_results: maxResults },
      batch: { batchId },
    });
    await insertBatch(tx, {
      org_id: actor.orgId,
      batch_id: batchId,
      agent_id: input.agent_id,
      dataset_id: datasetId,
      query,
      max_results: maxResults,
      provider,
      discovery_job_id: row.job_id,
    });
    return row;
  });
  await enqueueIngest(deps, actor.orgId, row.job_id);
  return {
    batch_id: batchId,
    state: "discovering" as const,
    agent_id: input.agent_id,
    dataset_id: datasetId,
    query,
    max_results: maxResults,
    discovery_job_id: row.job_id,
    status_url: `/v1/ingest/search/${batchId}`,
  };
}
