// Recall in two steps. plan: pick the strategy (pinned or AUTO) and embed the query — network calls,
// outside any transaction. execute: one tenant transaction that runs the strategy, counts the access
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
import { redactJson, redactText } from "./redaction";
import { AVAILABLE_STRATEGIES, strategyNamed } from "./registry";
import { routeAuto, type RoutingMethod } from "./route-auto";
import type { ConcreteStrategyName, RecallStrategy, StrategyName } from "./strategy";
import type { TimeWindow } from "./time-expressions";

export type RecallDeps = Pick<Deps, "config" | "db" | "llm" | "embedder" | "log">;

export type RecallInput = {
  agentId: string;
  query: string;
  topK?: number;
  strategy?: StrategyName;
  filters?: { memoryTypes?: string[]; metadata?: Record<string, unknown>; datasetId?: string; createdAfter?: Date; createdBefore?: Date };
};

export type Routing = { requested: StrategyName; method: RoutingMethod; reason: string; degraded_from?: ConcreteStrategyName };

export type RecallPlan = { input: RecallInput; topK: number; strategy: RecallStrategy; routing: Routing; queryVector: number[] | null; now: Date };

export type RecallResult = Omit<RecallRow, "last_accessed_at" | "access_count">;

export type RecallOutcome = {
  results: RecallResult[];
  strategy: ConcreteStrategyName;
  routing: Routing;
  window: { from: Date | null; to: Date | null; expression: string } | null;
  note: string | null;
  top_k: number;
  redactions: number;
};

const hasNul = (v: unknown): boolean =>
  typeof v === "string" ? v.includes("\u0000") : Array.isArray(v) ? v.some(hasNul) : v !== null && typeof v === "object" ? Object.entries(v).some(([k, x]) => k.includes("\u0000") || hasNul(x)) : false;

function validate(input: RecallInput): void {
  const problems = [];
  if (input.query.trim() === "") problems.push({ path: "/query", message: "must contain a non-blank character" });
  if (hasNul(input.query)) problems.push({ path: "/query", message: "must not contain NUL characters" });
  if (hasNul(input.agentId)) problems.push({ path: "/agent_id", message: "must not contain NUL characters" });
  if (hasNul(input.filters)) problems.push({ path: "/filters", message: "must not contain NUL characters" });
  const f = input.filters;
  if (f?.createdAfter && f.createdBefore && f.createdAfter >= f.createdBefore) problems.push({ path: "/filters/created_before", message: "must be after created_after" });
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

export async function planRecall(deps: RecallDeps, actor: Actor, input: RecallInput): Promise<RecallPlan> {
  validate(input);
  const now = new Date();
  const requested = input.strategy ?? "AUTO";
  let routing: Routing;
  let strategy: RecallStrategy;
  if (requested === "AUTO") {
    const decision = await routeAuto(deps.llm, actor.orgId, input.query, now, AVAILABLE_STRATEGIES, deps.embedder.name !== "local");
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
  return { input, topK: input.topK ?? deps.config.RECALL_TOP_K_DEFAULT, strategy, routing, queryVector, now };
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
      const ran = await strategy.run(tx, {
        filter: { orgId: actor.orgId, agentId: input.agentId, ...input.filters },
        query: input.query,
        topK,
        now: plan.now,
        queryVector: plan.queryVector,
        dimensions: deps.embedder.dimensions,
        efSearch: deps.config.RECALL_HNSW_EF_SEARCH,
        maxScanTuples: deps.config.RECALL_HNSW_MAX_SCAN_TUPLES,
        signal,
      });
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
  const { results, redactions } = present(outcome.rows, deps.config.RETRIEVAL_REDACTION_ENABLED);
  const window: TimeWindow | null = outcome.window ?? null;
  return { results, strategy: strategy.name, routing: plan.routing, window, note: outcome.note ?? null, top_k: topK, redactions };
}
