// Recall in two steps. plan: pick the strategy (pinned or AUTO), embed the query and run the strategy's
// prepare step (CYPHER's read-only query, ASK's LLM call) — network calls, outside the recall transaction. execute: one tenant transaction that runs the strategy, counts the access
// and writes the audit row, so a recall is audited if and only if it returned results to someone.
import type { Deps } from "../../app/deps";
import { isQueryTimeout } from "../../data/errors";
import { limitRecallTransaction, recordRecallAccess, type RecallRow } from "../../data/queries/recall-common";
import { withTenant } from "../../data/with-tenant";
import { EmbeddingUnavailableError } from "../../providers/embeddings/port";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { AppError, validationFailed } from "../errors";
import { sha256Hex } from "../hash";
import { redactGraphEvidence } from "./graph-redaction";
import { redactJson, redactText } from "./redaction";
import { AVAILABLE_STRATEGIES, strategyNamed } from "./registry";
import { routeAuto, type RoutingMethod } from "./route-auto";
import { graphRoutingFor } from "./routing/graph-rules";
import type { GraphEvidence } from "./graph-evidence";
import type { ConcreteStrategyName, RecallSearch, RecallStrategy, StrategyName } from "./strategy";
import type { TimeWindow } from "./time-expressions";

export type RecallDeps = Pick<Deps, "config" | "db" | "llm" | "embedder" | "log">;

export type RecallInput = {
  agentId: string;
  query: string;
  topK?: number;
  strategy?: StrategyName;
  /** Graph strategies: the event time to read the graph at. */
  asOf?: Date;
  /** CYPHER: values for the query's $parameters. */
  params?: Record<string, unknown>;
  filters?: { memoryTypes?: string[]; metadata?: Record<string, unknown>; datasetId?: string; createdAfter?: Date; createdBefore?: Date; occurredAfter?: Date; occurredBefore?: Date };
};

export type Routing = { requested: StrategyName; method: RoutingMethod; reason: string; degraded_from?: ConcreteStrategyName };

export type RecallPlan = { input: RecallInput; topK: number; strategy: RecallStrategy; routing: Routing; queryVector: number[] | null; now: Date; prepared: unknown };

export type RecallResult = Omit<RecallRow, "last_accessed_at" | "access_count">;

export type RecallOutcome = {
  results: RecallResult[];
  strategy: ConcreteStrategyName;
  routing: Routing;
  window: { from: Date | null; to: Date | null; expression: string } | null;
  note: string | null;
  top_k: number;
  redactions: number;
  /** Graph strategies only. */
  graph?: GraphEvidence;
};

function validate(input: RecallInput): void {
  const problems = [];
  if (input.query.trim() === "") problems.push({ path: "/query", message: "must contain a non-blank character" });
  const f = input.filters;
  if (f?.createdAfter && f.createdBefore && f.createdAfter >= f.createdBefore) problems.push({ path: "/filters/created_before", message: "must be after created_after" });
  if (f?.occurredAfter && f.occurredBefore && f.occurredAfter >= f.occurredBefore) problems.push({ path: "/filters/occurred_before", message: "must be after occurred_after" });
  if (problems.length > 0) throw validationFailed(problems);
}

/** Embeds the query; a provider outage degrades VECTOR to LEXICAL (said in routing), AppErrors propagate. */
async function embedQuery(deps: RecallDeps, actor: Actor, query: string): Promise<number[] | null> {
  try {
    const { vectors } = await deps.embedder.embed([query], { orgId: actor.orgId });
    return vectors[0] ?? null;
  } catch (error) {
    if (!(error instanceof EmbeddingUnavailableError)) throw error;
    deps.log.warn({ msg: "query embedding unavailable; VECTOR degrades to LEXICAL", request_id: actor.requestId, err: error.message });
    return null;
  }
}

export async function planRecall(deps: RecallDeps, actor: Actor, input: RecallInput, signal?: AbortSignal): Promise<RecallPlan> {
  validate(input);
  const now = new Date();
  const requested = input.strategy ?? "AUTO";
  let routing: Routing;
  let strategy: RecallStrategy;
  if (requested === "AUTO") {
    const decision = await routeAuto(deps.llm, actor.orgId, input.query, now, AVAILABLE_STRATEGIES, deps.embedder.name !== "local", graphRoutingFor(deps.db, actor.orgId, input.agentId, now));
    strategy = strategyNamed(decision.strategy);
    routing = { requested, method: decision.method, reason: decision.reason };
  } else {
    strategy = strategyNamed(requested);
    routing = { requested, method: "pinned", reason: `strategy ${requested} requested` };
  }
  let queryVector: number[] | null = null;
  if (strategy.needsEmbedding) {
    queryVector = await embedQuery(deps, actor, input.query);
    if (!queryVector) {
      routing = { ...routing, degraded_from: strategy.name, reason: `${routing.reason}; the embedding provider is unavailable, so LEXICAL ran instead` };
      strategy = strategyNamed("LEXICAL");
    }
  }
  const plan: RecallPlan = { input, topK: input.topK ?? deps.config.RECALL_TOP_K_DEFAULT, strategy, routing, queryVector, now, prepared: undefined };
  if (strategy.prepare) plan.prepared = await strategy.prepare({ deps, orgId: actor.orgId, signal }, searchOf(deps, actor, plan, signal));
  return plan;
}

function searchOf(deps: RecallDeps, actor: Actor, plan: RecallPlan, signal: AbortSignal | undefined): RecallSearch {
  const { input } = plan;
  return {
    filter: { orgId: actor.orgId, agentId: input.agentId, ...input.filters },
    query: input.query,
    topK: plan.topK,
    now: plan.now,
    queryVector: plan.queryVector,
    dimensions: deps.embedder.dimensions,
    efSearch: deps.config.RECALL_HNSW_EF_SEARCH,
    maxScanTuples: deps.config.RECALL_HNSW_MAX_SCAN_TUPLES,
    asOf: input.asOf ?? null,
    params: input.params ?? {},
    graphBounds: { maxHops: deps.config.GRAPH_MAX_HOPS, fanout: deps.config.GRAPH_FANOUT, maxRows: deps.config.GRAPH_MAX_ROWS },
    signal,
  };
}

function present(rows: RecallRow[], redact: boolean): { results: RecallResult[]; redactions: number } {
  let redactions = 0;
  const results = rows.map(({ last_accessed_at: _a, access_count: _c, ...row }) => {
    if (!redact) return row;
    const content = redactText(row.content);
    const metadata = redactJson(row.metadata);
    redactions += content.count + metadata.count;
    return { ...row, content: content.value, metadata: metadata.value };
  });
  return { results, redactions };
}

export async function executeRecall(deps: RecallDeps, actor: Actor, plan: RecallPlan, signal?: AbortSignal): Promise<RecallOutcome> {
  const { input, strategy, topK } = plan;
  let outcome;
  try {
    outcome = await withTenant(deps.db, actor.orgId, async (tx) => {
      await limitRecallTransaction(tx, deps.config.RECALL_TIMEOUT_MS);
      const ran = await strategy.run(tx, searchOf(deps, actor, plan, signal), plan.prepared);
      const ids = ran.rows.map((r) => r.memory_id);
      await recordRecallAccess(tx, actor.orgId, ids);
      await recordAudit(tx, actor, {
        operation: "recall",
        agentId: input.agentId,
        targetIds: ids,
        detail: { strategy: strategy.name, requested_strategy: plan.routing.requested, routing: plan.routing.method, top_k: topK, result_count: ids.length, query_sha256: sha256Hex(input.query) },
      });
      return ran;
    });
  } catch (error) {
    if (isQueryTimeout(error) && !signal?.aborted) throw new AppError("service-unavailable", `The recall did not finish within ${deps.config.RECALL_TIMEOUT_MS} ms; narrow the query or retry`);
    throw error;
  }
  const redact = deps.config.RETRIEVAL_REDACTION_ENABLED;
  const { results, redactions } = present(outcome.rows, redact);
  const graph = outcome.graph && redact ? redactGraphEvidence(outcome.graph) : outcome.graph ? { value: outcome.graph, count: 0 } : null;
  const window: TimeWindow | null = outcome.window ?? null;
  return { results, strategy: strategy.name, routing: plan.routing, window, note: outcome.note ?? null, top_k: topK, redactions: redactions + (graph?.count ?? 0), ...(graph ? { graph: graph.value } : {}) };
}
