// The RecallSearch every strategy receives: the plan's query, filters and the configured bounds.
import type { Actor } from "../../actor";
import type { RecallSearch } from "../strategy";
import type { RecallDeps, RecallPlan } from "./types";

export function searchOf(
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  signal: AbortSignal | undefined,
  topK = plan.topK,
): RecallSearch {
  const { input } = plan;
  return {
    filter: { orgId: actor.orgId, agentId: input.agentId, ...input.filters },
    query: input.query,
    topK,
    now: plan.now,
    queryVector: plan.queryVector,
    dimensions: plan.generation.dims,
    embeddingModel: plan.generation.model,
    efSearch: deps.config.RECALL_HNSW_EF_SEARCH,
    maxScanTuples: deps.config.RECALL_HNSW_MAX_SCAN_TUPLES,
    exactMaxRows: deps.config.RECALL_VECTOR_EXACT_MAX_ROWS,
    vectorShapes: deps.vectorShapes,
    asOf: input.asOf ?? null,
    params: input.params ?? {},
    graphBounds: {
      maxHops: deps.config.GRAPH_MAX_HOPS,
      fanout: deps.config.GRAPH_FANOUT,
      maxRows: deps.config.GRAPH_MAX_ROWS,
    },
    signal,
  };
}
