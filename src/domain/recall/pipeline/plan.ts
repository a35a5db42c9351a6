// Stage 2, outside the recall transaction: what runs. A pinned strategy, a requested fusion, or
// AUTO's retrievers and weights (route-auto.ts); the query embedded once, the time expression
// parsed once, and every prepare step (CYPHER's parser, ASK's LLM call) done before a stream opens.
import type { Actor } from "../../actor";
import type { InProcessSpend } from "../../budgets/charge";
import type { ServingGeneration } from "../../memories/embedding-generations";
import { planFusion, type FusionRequest } from "../fusion";
import { AVAILABLE_NAMES, AVAILABLE_STRATEGIES, strategyNamed } from "../registry";
import { askLlmRouter, planAuto } from "../route-auto";
import { cypherRule, entityRuleApplies } from "../routing/graph-rules";
import type { ConcreteStrategyName, RecallStrategy } from "../strategy";
import { parseTimeExpression } from "../time-expressions";
import { embedQuery } from "./embed-query";
import { searchOf } from "./search";
import type { RecallDeps, RecallInput, RecallPlan, Routing } from "./types";
import { validateRecall } from "./validate";

type Base = Omit<RecallPlan, "strategy" | "routing" | "prepared">;

export async function planRecall(
  deps: RecallDeps,
  actor: Actor,
  input: RecallInput,
  signal?: AbortSignal,
): Promise<RecallPlan> {
  validateRecall(deps, input);
  const now = new Date();
  const serving = await deps.embeddings.serving(actor.orgId);
  const base: Base = {
    input,
    now,
    time: parseTimeExpression(input.query, now),
    topK: input.topK ?? deps.config.RECALL_TOP_K_DEFAULT,
    queryVector: null,
    charge: null,
    generation: { model: serving.model, dims: serving.dims },
  };
  if (input.fusion) return planFused(deps, actor, base, input.fusion, serving, signal);
  const requested = input.strategy ?? "AUTO";
  if (requested !== "AUTO")
    return planPinned(
      deps,
      actor,
      base,
      strategyNamed(requested),
      { requested, method: "pinned", reason: `strategy ${requested} requested` },
      serving,
      signal,
    );
  const cypher = cypherRule(input.query, AVAILABLE_NAMES);
  if (cypher)
    return planPinned(
      deps,
      actor,
      base,
      strategyNamed(cypher.strategy),
      { requested, method: "rules", reason: cypher.reason },
      serving,
      signal,
    );
  return planAutoRecall(deps, actor, base, serving, signal);
}

async function prepared(
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  strategy: RecallStrategy,
  signal?: AbortSignal,
): Promise<unknown> {
  return strategy.prepare
    ? strategy.prepare({ deps, orgId: actor.orgId, signal }, searchOf(deps, actor, plan, signal))
    : undefined;
}

async function planPinned(
  deps: RecallDeps,
  actor: Actor,
  base: Base,
  chosen: RecallStrategy,
  routing: Routing,
  serving: ServingGeneration,
  signal?: AbortSignal,
): Promise<RecallPlan> {
  let strategy = chosen;
  let queryVector: number[] | null = null;
  let charge: InProcessSpend | null = null;
  if (strategy.needsEmbedding) {
    const embedded = await embedQuery(deps, actor, base.input.query, serving);
    ({ vector: queryVector, charge } = embedded);
    if (!queryVector) {
      routing = {
        ...routing,
        degraded_from: strategy.name,
        reason: `${routing.reason}; ${embedded.unavailable}, so LEXICAL ran instead`,
      };
      strategy = strategyNamed("LEXICAL");
    }
  }
  const plan: RecallPlan = { ...base, queryVector, charge, strategy, routing, prepared: undefined };
  plan.prepared = await prepared(deps, actor, plan, strategy, signal);
  return plan;
}

async function planFused(
  deps: RecallDeps,
  actor: Actor,
  base: Base,
  request: FusionRequest,
  serving: ServingGeneration,
  signal?: AbortSignal,
): Promise<RecallPlan> {
  let charge: InProcessSpend | null = null;
  const embed = async () => {
    const embedded = await embedQuery(deps, actor, base.input.query, serving);
    charge = embedded.charge;
    return embedded.vector;
  };
  const first = strategyNamed(request.strategies[0]!);
  const pending: RecallPlan = {
    ...base,
    strategy: first,
    routing: { requested: "AUTO", method: "pinned", reason: "" },
    prepared: undefined,
  };
  const planned = await planFusion(
    request,
    strategyNamed,
    embed,
    { deps, orgId: actor.orgId, signal },
    (queryVector) => searchOf(deps, actor, { ...pending, queryVector }, signal),
  );
  const strategy = planned.fusion.members[0]!.strategy;
  const names = planned.fusion.members.map((m) => m.strategy.name).join(", ");
  const routing: Routing = {
    requested: strategy.name,
    method: "pinned",
    reason: `fusion of ${names} requested; strategy names the first`,
    ...(planned.degradedFrom ? { degraded_from: planned.degradedFrom } : {}),
  };
  return {
    ...base,
    queryVector: planned.queryVector,
    charge,
    strategy,
    routing,
    prepared: undefined,
    fusion: planned.fusion,
  };
}

/**
 * AUTO: with an LLM configured its choice raises one retriever's weight (never a filter); an
 * unusable answer or an outage leaves the rules' weights and says why. Without an LLM the recall
 * transaction reads the entity rule, whose graph strategy joins the fusion.
 */
async function planAutoRecall(
  deps: RecallDeps,
  actor: Actor,
  base: Base,
  serving: ServingGeneration,
  signal?: AbortSignal,
): Promise<RecallPlan> {
  const { query } = base.input;
  let llmChoice: ConcreteStrategyName | undefined;
  let llmWhy = "";
  if (deps.llm.name !== "local") {
    const answer = await askLlmRouter(deps.llm, actor.orgId, query, AVAILABLE_STRATEGIES);
    if (typeof answer === "string") llmWhy = `${answer}; `;
    else if (answer.strategy === "CYPHER")
      llmWhy = `the LLM chose CYPHER, but the query is not Cypher (${answer.reason}); `;
    else
      ({ strategy: llmChoice, reason: llmWhy } = {
        strategy: answer.strategy,
        reason: `${answer.reason}; `,
      });
  }
  const embedded = await embedQuery(deps, actor, query, serving);
  const semanticEmbedder = (serving.embedder ?? deps.embeddings.configured).name !== "local";
  const auto = planAuto(
    query,
    base.time,
    { named: strategyNamed, semanticEmbedder, vectorAvailable: embedded.vector !== null },
    llmChoice,
  );
  auto.entityRule =
    deps.llm.name === "local" && entityRuleApplies(query, base.time, AVAILABLE_NAMES);
  const unavailable = embedded.vector ? "" : `; VECTOR left out: ${embedded.unavailable}`;
  const routing: Routing = {
    requested: "AUTO",
    method: llmChoice ? "llm" : "rules",
    reason: `${llmWhy}${auto.reason}${unavailable}`,
  };
  const plan: RecallPlan = {
    ...base,
    queryVector: embedded.vector,
    charge: embedded.charge,
    strategy: strategyNamed("LEXICAL"),
    routing,
    prepared: undefined,
    auto,
  };
  for (const r of auto.retrievers)
    r.prepared = await prepared(deps, actor, plan, r.strategy, signal);
  return plan;
}
