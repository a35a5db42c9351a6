// Recall in two steps. plan: pick the strategy (pinned or AUTO), embed the query and run the strategy's
// prepare step (CYPHER's read-only query, ASK's LLM call) — network calls, outside the recall transaction.
// execute: ONE tenant transaction that runs the strategy, then, in one pipelined round trip, writes the
// audit row and charges an in-process embedding to the budget, so a recall is audited if and only if it
// returned results to someone. The audit drain counts the access from that row (memory-access.ts).
import type { Deps } from "../../app/deps";
import { isQueryTimeout } from "../../data/errors";
import { limitRecallTransaction, restoreCustomPlans, type RecallRow } from "../../data/queries/recall-common";
import { chargeInTransaction, type InProcessSpend } from "../budgets/charge";
import { heavyWork } from "../../data/tenant-share";
import { withTenant } from "../../data/with-tenant";
import type { Tx } from "../../data/pools";
import { readGeneration } from "../../data/queries/embedding-generations";
import { EmbeddingUnavailableError } from "../../providers/embeddings/port";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { AppError, validationFailed } from "../errors";
import { sha256Hex } from "../hash";
import { redactGraphEvidence } from "./graph-redaction";
import { redactJson, redactText } from "./redaction";
import { AVAILABLE_NAMES, AVAILABLE_STRATEGIES, strategyNamed } from "./registry";
import { routeAuto, routeByRules, type RoutingMethod } from "./route-auto";
import { fusionSummary, planFusion, runFusion, type FusionPlan, type FusionRequest, type FusionSummary } from "./fusion";
import { fetchNeighbours, withNeighbours } from "./neighbours";
import { rerankResults } from "./rerank";
import { fillGraphAnswer } from "./graph-fill";
import { entityRule, entityRuleApplies, graphRoutingFor } from "./routing/graph-rules";
import type { GraphEvidence } from "./graph-evidence";
import type { ConcreteStrategyName, RecallSearch, RecallStrategy, StrategyName, StrategyOutcome } from "./strategy";
import type { TimeWindow } from "./time-expressions";
import type { Generation, ServingGeneration } from "../memories/embedding-generations";

export type RecallDeps = Pick<Deps, "config" | "db" | "llm" | "embeddings" | "log" | "queryVectors" | "vectorShapes">;

export type RecallInput = {
  agentId: string;
  query: string;
  topK?: number;
  strategy?: StrategyName;
  /** Graph strategies: the event time to read the graph at. */
  asOf?: Date;
  /** CYPHER: values for the query's $parameters. */
  params?: Record<string, unknown>;
  /** Reciprocal-rank fusion of these strategies instead of one strategy (fusion.ts). */
  fusion?: FusionRequest;
  /** Reorder the results by one LLM call after the transaction (rerank.ts). */
  rerank?: boolean;
  /** Attach each turn's neighbouring turns, up to this many on each side (neighbours.ts). */
  context?: { neighbours: number };
  filters?: { memoryTypes?: string[]; metadata?: Record<string, unknown>; datasetId?: string; createdAfter?: Date; createdBefore?: Date; occurredAfter?: Date; occurredBefore?: Date };
};

export type Routing = { requested: StrategyName; method: RoutingMethod; reason: string; degraded_from?: ConcreteStrategyName };

export type RecallPlan = {
  input: RecallInput; topK: number; strategy: RecallStrategy; routing: Routing; now: Date; prepared: unknown;
  queryVector: number[] | null;
  /** The embedding generation the query vector belongs to (the tenant's serving one when planned). */
  generation: Generation;
  /** The local embedder's spend, charged inside the recall transaction (null: already metered, or cached). */
  charge: InProcessSpend | null;
  /** Fused recalls only (fusion.ts). */
  fusion?: FusionPlan;
  /** AUTO without an LLM: the recall transaction first reads the graph's entity rule, whose decision wins. */
  entityRuleInTransaction?: boolean;
};

export type RecallResult = RecallRow;

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
  /** Fused recalls only: the strategies that ran, and k. */
  fusion?: FusionSummary;
};

function validate(input: RecallInput): void {
  const problems = [];
  if (input.query.trim() === "") problems.push({ path: "/query", message: "must contain a non-blank character" });
  const f = input.filters;
  if (f?.createdAfter && f.createdBefore && f.createdAfter >= f.createdBefore) problems.push({ path: "/filters/created_before", message: "must be after created_after" });
  if (f?.occurredAfter && f.occurredBefore && f.occurredAfter >= f.occurredBefore) problems.push({ path: "/filters/occurred_before", message: "must be after occurred_after" });
  if (problems.length > 0) throw validationFailed(problems);
}

type QueryEmbedding = { vector: number[] | null; charge: InProcessSpend | null; unavailable: string };

/**
 * Embeds the query with the tenant's serving generation (during a re-embed: the old model, whose vectors
 * recall still reads): the local embedder in-process, charged later in the recall transaction; a remote
 * provider metered as usual, its vectors cached per tenant and model. A provider outage degrades VECTOR
 * to LEXICAL (said in routing); AppErrors propagate.
 */
async function embedQuery(deps: RecallDeps, actor: Actor, query: string, serving: ServingGeneration): Promise<QueryEmbedding> {
  const embedder = serving.embedder;
  if (!embedder) {
    return { vector: null, charge: null, unavailable: `the embedding model serving this tenant (${serving.model}) is being replaced and is not configured (EMBEDDING_PREVIOUS_*)` };
  }
  const ctx = { orgId: actor.orgId };
  const unavailable = "the embedding provider is unavailable";
  if (embedder.embedUncharged) {
    const { vectors, tokens } = await embedder.embedUncharged([query], ctx);
    return { vector: vectors[0] ?? null, charge: vectors[0] ? { tokens, embeddingCalls: 1 } : null, unavailable };
  }
  const cached = deps.queryVectors.get(actor.orgId, embedder.model, query);
  if (cached) return { vector: cached, charge: null, unavailable };
  try {
    const { vectors } = await embedder.embed([query], ctx);
    if (vectors[0]) deps.queryVectors.put(actor.orgId, embedder.model, query, vectors[0]);
    return { vector: vectors[0] ?? null, charge: null, unavailable };
  } catch (error) {
    if (!(error instanceof EmbeddingUnavailableError)) throw error;
    deps.log.warn({ msg: "query embedding unavailable; VECTOR degrades to LEXICAL", request_id: actor.requestId, err: error.message });
    return { vector: null, charge: null, unavailable: "the embedding provider is unavailable" };
  }
}

export async function planRecall(deps: RecallDeps, actor: Actor, input: RecallInput, signal?: AbortSignal): Promise<RecallPlan> {
  validate(input);
  if (input.rerank && deps.llm.name === "local") throw validationFailed([{ path: "/rerank", message: "needs an LLM: set LLM_API_KEY (docs/recall.md, Rerank)" }]);
  const now = new Date();
  if (input.fusion) return planFused(deps, actor, input, input.fusion, now, signal);
  const requested = input.strategy ?? "AUTO";
  const serving = await deps.embeddings.serving(actor.orgId);
  let routing: Routing;
  let strategy: RecallStrategy;
  let entityRuleInTransaction = false;
  if (requested === "AUTO") {
    const semantic = (serving.embedder ?? deps.embeddings.configured).name !== "local";
    // Without an LLM the entity rule reads the agent's graph. When the rules' own choice needs no query
    // embedding (nothing is spent before the read could change it), the read joins the recall
    // transaction instead of taking a transaction of its own.
    const later = deps.llm.name === "local" && !strategyNamed(routeByRules(input.query, now, AVAILABLE_NAMES, semantic).strategy).needsEmbedding;
    const decision = await routeAuto(deps.llm, actor.orgId, input.query, now, AVAILABLE_STRATEGIES, semantic, graphRoutingFor(deps.db, actor.orgId, input.agentId, now, later));
    strategy = strategyNamed(decision.strategy);
    routing = { requested, method: decision.method, reason: decision.reason };
    entityRuleInTransaction = later && decision.strategy !== "CYPHER" && entityRuleApplies(input.query, now, AVAILABLE_NAMES);
  } else {
    strategy = strategyNamed(requested);
    routing = { requested, method: "pinned", reason: `strategy ${requested} requested` };
  }
  let queryVector: number[] | null = null;
  let charge: InProcessSpend | null = null;
  if (strategy.needsEmbedding) {
    const embedded = await embedQuery(deps, actor, input.query, serving);
    queryVector = embedded.vector;
    charge = embedded.charge;
    if (!queryVector) {
      routing = { ...routing, degraded_from: strategy.name, reason: `${routing.reason}; ${embedded.unavailable}, so LEXICAL ran instead` };
      strategy = strategyNamed("LEXICAL");
    }
  }
  const generation = { model: serving.model, dims: serving.dims };
  const plan: RecallPlan = { input, topK: input.topK ?? deps.config.RECALL_TOP_K_DEFAULT, strategy, routing, queryVector, generation, now, prepared: undefined, charge, entityRuleInTransaction };
  if (strategy.prepare) plan.prepared = await strategy.prepare({ deps, orgId: actor.orgId, signal }, searchOf(deps, actor, plan, signal));
  return plan;
}

async function planFused(deps: RecallDeps, actor: Actor, input: RecallInput, request: FusionRequest, now: Date, signal: AbortSignal | undefined): Promise<RecallPlan> {
  const topK = input.topK ?? deps.config.RECALL_TOP_K_DEFAULT;
  const serving = await deps.embeddings.serving(actor.orgId);
  const base = { input, topK, now, prepared: undefined, queryVector: null, generation: { model: serving.model, dims: serving.dims }, charge: null };
  let charge: InProcessSpend | null = null;
  const embed = async () => {
    const embedded = await embedQuery(deps, actor, input.query, serving);
    charge = embedded.charge;
    return embedded.vector;
  };
  const planned = await planFusion(request, strategyNamed, embed, { deps, orgId: actor.orgId, signal },
    (queryVector) => searchOf(deps, actor, { ...base, queryVector, strategy: strategyNamed(request.strategies[0]!), routing: { requested: "AUTO", method: "pinned", reason: "" } }, signal));
  const strategy = planned.fusion.members[0]!.strategy;
  const names = planned.fusion.members.map((m) => m.strategy.name).join(", ");
  const routing: Routing = { requested: strategy.name, method: "pinned", reason: `fusion of ${names} requested; strategy names the first`, ...(planned.degradedFrom ? { degraded_from: planned.degradedFrom } : {}) };
  return { ...base, queryVector: planned.queryVector, charge, strategy, routing, fusion: planned.fusion };
}

function searchOf(deps: RecallDeps, actor: Actor, plan: RecallPlan, signal: AbortSignal | undefined): RecallSearch {
  const { input } = plan;
  return {
    filter: { orgId: actor.orgId, agentId: input.agentId, ...input.filters },
    query: input.query,
    topK: plan.topK,
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
    graphBounds: { maxHops: deps.config.GRAPH_MAX_HOPS, fanout: deps.config.GRAPH_FANOUT, maxRows: deps.config.GRAPH_MAX_ROWS },
    signal,
  };
}

/**
 * Exactly the response's fields: a strategy's working columns (VECTOR's distance, access counters)
 * never leave, and the response encoder meets no unknown property (which would make Elysia clean and
 * encode every response twice).
 */
function resultOf(row: RecallRow): RecallResult {
  return {
    memory_id: row.memory_id, version: row.version, agent_id: row.agent_id, content: row.content, memory_type: row.memory_type, metadata: row.metadata,
    importance: row.importance, dataset_id: row.dataset_id, created_at: row.created_at, occurred_at: row.occurred_at, valid_from: row.valid_from,
    expires_at: row.expires_at, score: row.score, ...(row.graph ? { graph: row.graph } : {}),
  };
}

function present(rows: RecallRow[], redact: boolean): { results: RecallResult[]; redactions: number } {
  let redactions = 0;
  const results = rows.map((row) => {
    const result = resultOf(row);
    if (!redact) return result;
    const content = redactText(result.content);
    const metadata = redactJson(result.metadata);
    redactions += content.count + metadata.count;
    return { ...result, content: content.value, metadata: metadata.value };
  });
  return { results, redactions };
}

/** VECTOR found nothing because the tenant switched embedding generation after the query was embedded. */
class GenerationSwitched extends Error {}

/**
 * Strategies whose transaction can run to the recall timeout (graph walks): bounded by the tenant's
 * heavy slots. CYPHER's heavy part is its query, which queryGraph bounds in the prepare step.
 */
const HEAVY_STRATEGIES: ReadonlySet<string> = new Set(["GRAPH", "TRACE"]);

const isHeavy = (plan: RecallPlan) =>
  [plan.strategy.name, ...(plan.fusion ? fusionSummary(plan.fusion).strategies : [])].some((name) => HEAVY_STRATEGIES.has(name));

export async function executeRecall(deps: RecallDeps, actor: Actor, planned: RecallPlan, signal?: AbortSignal, replanned = false): Promise<RecallOutcome> {
  let plan = planned;
  let outcome;
  const inShare = <T>(work: () => Promise<T>) => (isHeavy(planned) ? heavyWork(actor.orgId, work) : work());
  try {
    outcome = await inShare(() => withTenant(deps.db, actor.orgId, async (tx) => {
      limitRecallTransaction(tx, deps.config.RECALL_TIMEOUT_MS, !plan.fusion && plan.strategy.genericPlans ? "generic" : "custom");
      // AUTO without an LLM: the entity rule's read is sent first and the rules' choice runs right behind
      // it, in the same round trips; only when the read routes the query to the graph (ASK or GRAPH) does
      // that strategy run instead, and what ran first is dropped.
      const routed = plan.entityRuleInTransaction ? entityRouted(tx, deps, actor, plan, signal) : null;
      routed?.catch(() => undefined); // a failed read fails the statements behind it, which report it
      let ran = await runStrategy(tx, deps, actor, plan, signal);
      const graphPlan = routed ? await routed : null;
      if (graphPlan) {
        plan = graphPlan;
        ran = await runStrategy(tx, deps, actor, plan, signal);
      }
      const { strategy, input, topK } = plan;
      // Only an empty VECTOR answer pays for this check: after a switch, a query embedded with the old
      // generation matches no vector (recall filters on the generation), and is embedded again below.
      if (!replanned && plan.queryVector && ran.rows.length === 0 && await servingChanged(tx, deps, plan.generation)) throw new GenerationSwitched();
      const ids = ran.rows.map((r) => r.memory_id);
      const neighbours = input.context ? await fetchNeighbours(tx, actor.orgId, input.agentId, ids, input.context.neighbours) : null;
      // Issued together, so they share one round trip; the audit row commits with the recall or not at all.
      await Promise.all([
        recordAudit(tx, actor, {
          operation: "recall",
          agentId: input.agentId,
          targetIds: ids,
          detail: { strategy: strategy.name, requested_strategy: plan.routing.requested, routing: plan.routing.method, top_k: topK, result_count: ids.length, query_sha256: sha256Hex(input.query), ...(plan.fusion ? { fused: fusionSummary(plan.fusion).strategies } : {}) },
        }),
        plan.charge ? chargeInTransaction(tx, deps.config, actor.orgId, plan.charge, plan.now) : null,
      ]);
      return { ...ran, neighbours };
    }));
  } catch (error) {
    if (error instanceof GenerationSwitched) return executeRecall(deps, actor, await replanForSwitch(deps, actor, plan), signal, true);
    if (isQueryTimeout(error) && !signal?.aborted) throw new AppError("service-unavailable", `The recall did not finish within ${deps.config.RECALL_TIMEOUT_MS} ms; narrow the query or retry`);
    throw error;
  }
  const { input, strategy, topK } = plan;
  const redact = deps.config.RETRIEVAL_REDACTION_ENABLED;
  const plain = present(outcome.rows, redact);
  const context = outcome.neighbours ? withNeighbours(plain.results, outcome.neighbours, redact) : null;
  const presented = { results: context?.results ?? plain.results, redactions: plain.redactions + (context?.redactions ?? 0) };
  const reranked = input.rerank ? await rerankResults(deps.llm, actor.orgId, input.query, presented.results) : null;
  const results = reranked?.results ?? presented.results;
  const note = [outcome.note, reranked?.note].filter(Boolean).join("; ") || null;
  const graph = outcome.graph && redact ? redactGraphEvidence(outcome.graph) : outcome.graph ? { value: outcome.graph, count: 0 } : null;
  const window: TimeWindow | null = outcome.window ?? null;
  return { results, strategy: strategy.name, routing: plan.routing, window, note, top_k: topK, redactions: presented.redactions + (graph?.count ?? 0), ...(graph ? { graph: graph.value } : {}), ...(plan.fusion ? { fusion: fusionSummary(plan.fusion) } : {}) };
}

/** The strategy (or the fusion) of the plan, with AUTO's graph answers filled up by LEXICAL. */
async function runStrategy(tx: Tx, deps: RecallDeps, actor: Actor, plan: RecallPlan, signal: AbortSignal | undefined): Promise<StrategyOutcome> {
  const search = searchOf(deps, actor, plan, signal);
  if (plan.fusion) return runFusion(tx, plan.fusion, search);
  const answered = await plan.strategy.run(tx, search, plan.prepared);
  return plan.routing.requested === "AUTO" ? fillGraphAnswer(tx, plan.strategy.name, search, answered) : answered;
}

/**
 * The plan routed by the entity rule when it decides (ASK or GRAPH, whose prepare step makes no network
 * call without an LLM), else null: the rules' choice stands.
 */
async function entityRouted(tx: Tx, deps: RecallDeps, actor: Actor, plan: RecallPlan, signal: AbortSignal | undefined): Promise<RecallPlan | null> {
  const decision = await entityRule(tx, actor.orgId, plan.input.agentId, plan.input.query, AVAILABLE_NAMES);
  if (!decision) return null;
  const strategy = strategyNamed(decision.strategy);
  restoreCustomPlans(tx); // the graph strategies' queries are planned for their arguments
  const routed: RecallPlan = { ...plan, strategy, routing: { requested: "AUTO", method: decision.method, reason: decision.reason }, prepared: undefined, entityRuleInTransaction: false };
  if (strategy.prepare) routed.prepared = await strategy.prepare({ deps, orgId: actor.orgId, signal }, searchOf(deps, actor, routed, signal));
  return routed;
}

async function servingChanged(tx: Tx, deps: RecallDeps, planned: Generation): Promise<boolean> {
  const row = await readGeneration(tx);
  const configured = deps.embeddings.configured;
  const model = row?.serving_model ?? configured.model;
  const dims = row?.serving_dims ?? configured.dimensions;
  return model !== planned.model || dims !== planned.dims;
}

/** The same plan with the query embedded by the generation that serves now (once: the cache is dropped first). */
async function replanForSwitch(deps: RecallDeps, actor: Actor, plan: RecallPlan): Promise<RecallPlan> {
  deps.embeddings.forget(actor.orgId);
  const serving = await deps.embeddings.serving(actor.orgId);
  const embedded = await embedQuery(deps, actor, plan.input.query, serving);
  const generation = { model: serving.model, dims: serving.dims };
  if (embedded.vector) return { ...plan, queryVector: embedded.vector, generation };
  const routing = { ...plan.routing, degraded_from: plan.strategy.name, reason: `${plan.routing.reason}; ${embedded.unavailable}, so LEXICAL ran instead` };
  return { ...plan, strategy: strategyNamed("LEXICAL"), routing, queryVector: null, generation };
}
