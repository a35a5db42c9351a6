// Recall as visible stages (pipeline/): validate → plan → retrieve → fuse → present. The plan
// (network calls: the query embedding, an LLM router, a strategy's prepare step) happens outside
// the transaction; then ONE tenant transaction retrieves and, in one pipelined round trip, writes
// the audit row and charges an in-process embedding to the budget, so a recall is audited if and
// only if it returned results to someone. REST, the stream and MCP all go through here.
import { isQueryTimeout } from "../../data/errors";
import type { Tx } from "../../data/pools";
import { readGeneration } from "../../data/queries/memories/embedding-generations";
import { heavyWork } from "../../data/tenant-share";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { chargeInTransaction } from "../budgets/charge";
import { AppError } from "../../lib/errors";
import { sha256Hex } from "../../lib/hash";
import type { Generation } from "../memories/embedding-generations";
import { fetchNeighbours } from "./neighbours";
import { strategyNamed } from "./registry";
import { embedQuery } from "./pipeline/embed-query";
import { fuse } from "./pipeline/fuse";
import { planRecall } from "./pipeline/plan";
import { present } from "./pipeline/present";
import { retrieve } from "./pipeline/retrieve";
import { openRecallTransaction } from "./pipeline/settings";
import type { RecallDeps, RecallInput, RecallOutcome, RecallPlan } from "./pipeline/types";

export type {
  RecallDeps,
  RecallInput,
  RecallOutcome,
  RecallPlan,
  RecallResult,
  Routing,
} from "./pipeline/types";
export { planRecall };

/** A recall from request to response. */
export async function recall(
  deps: RecallDeps,
  actor: Actor,
  input: RecallInput,
  signal?: AbortSignal,
): Promise<RecallOutcome> {
  return (await openRecall(deps, actor, input, signal))(signal);
}

/**
 * The same recall in two halves: validated and planned now (so that the stream turns plan errors
 * into problem responses before it opens), retrieved, fused and presented when called.
 */
export async function openRecall(
  deps: RecallDeps,
  actor: Actor,
  input: RecallInput,
  signal?: AbortSignal,
): Promise<(signal?: AbortSignal) => Promise<RecallOutcome>> {
  const plan = await planRecall(deps, actor, input, signal);
  return (later) => executeRecall(deps, actor, plan, later);
}

/**
 * VECTOR found nothing because the tenant switched embedding generation after the query was
 * embedded.
 */
class GenerationSwitched extends Error {}

/**
 * Strategies whose transaction can run to the recall timeout (graph walks): bounded by the tenant's
 * heavy slots. CYPHER's heavy part is its query, which queryGraph bounds in the prepare step.
 */
const HEAVY_STRATEGIES: ReadonlySet<string> = new Set(["GRAPH", "TRACE"]);

/** The strategies one recall runs: the pinned one, a fusion's members or AUTO's retrievers. */
function strategiesOf(plan: RecallPlan): string[] {
  if (plan.fusion) return plan.fusion.members.map((m) => m.strategy.name);
  if (plan.auto) return plan.auto.retrievers.map((r) => r.strategy.name);
  return [plan.strategy.name];
}

/** The stages after the plan; the stream plans first, so that plan errors are problem responses. */
export async function executeRecall(
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  signal?: AbortSignal,
  replanned = false,
): Promise<RecallOutcome> {
  let inTransaction;
  const heavy = strategiesOf(plan).some((name) => HEAVY_STRATEGIES.has(name));
  const inShare = <T>(work: () => Promise<T>) => (heavy ? heavyWork(actor.orgId, work) : work());
  try {
    inTransaction = await inShare(() =>
      withTenant(deps.db, actor.orgId, async (tx) => {
        openRecallTransaction(tx, deps, plan);
        const retrieved = await retrieve(tx, deps, actor, plan, signal);
        // Only an empty VECTOR list pays for this check: after a switch, a query embedded with the
        // old generation matches no vector (recall filters on the generation), and is embedded
        // again below.
        const vectorEmpty = retrieved.lists.some((l) => l.name === "VECTOR" && l.rows.length === 0);
        if (
          !replanned &&
          plan.queryVector &&
          vectorEmpty &&
          (await servingChanged(tx, deps, plan.generation))
        )
          throw new GenerationSwitched();
        const fused = fuse(plan, retrieved);
        const ids = fused.rows.map((r) => r.memory_id);
        const { input } = plan;
        const neighbours = input.context
          ? await fetchNeighbours(tx, actor.orgId, input.agentId, ids, input.context.neighbours)
          : null;
        await audited(tx, deps, actor, plan, fused.strategy, ids);
        return { retrieved, fused, neighbours };
      }),
    );
  } catch (error) {
    if (error instanceof GenerationSwitched)
      return executeRecall(deps, actor, await replanForSwitch(deps, actor, plan), signal, true);
    if (isQueryTimeout(error) && !signal?.aborted)
      throw new AppError(
        "service-unavailable",
        `The recall did not finish within ${deps.config.RECALL_TIMEOUT_MS} ms; narrow the query or retry`,
      );
    throw error;
  }
  return present(deps, actor, { plan, ...inTransaction });
}

/**
 * Issued together, so they share one round trip; the audit row commits with the recall or not at
 * all.
 */
async function audited(
  tx: Tx,
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  strategy: string,
  ids: string[],
): Promise<void> {
  const fused = plan.fusion || plan.auto ? strategiesOf(plan) : null;
  await Promise.all([
    recordAudit(tx, actor, {
      operation: "recall",
      agentId: plan.input.agentId,
      targetIds: ids,
      detail: {
        strategy,
        requested_strategy: plan.routing.requested,
        routing: plan.routing.method,
        top_k: plan.topK,
        result_count: ids.length,
        query_sha256: sha256Hex(plan.input.query),
        ...(fused ? { fused } : {}),
      },
    }),
    plan.charge ? chargeInTransaction(tx, deps.config, actor.orgId, plan.charge, plan.now) : null,
  ]);
}

async function servingChanged(tx: Tx, deps: RecallDeps, planned: Generation): Promise<boolean> {
  const row = await readGeneration(tx);
  const configured = deps.embeddings.configured;
  const model = row?.serving_model ?? configured.model;
  const dims = row?.serving_dims ?? configured.dimensions;
  return model !== planned.model || dims !== planned.dims;
}

/**
 * The same plan with the query embedded by the generation that serves now (once: the cache is
 * dropped first).
 */
async function replanForSwitch(
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
): Promise<RecallPlan> {
  deps.embeddings.forget(actor.orgId);
  const serving = await deps.embeddings.serving(actor.orgId);
  const embedded = await embedQuery(deps, actor, plan.input.query, serving);
  const generation = { model: serving.model, dims: serving.dims };
  if (embedded.vector) return { ...plan, queryVector: embedded.vector, generation };
  const why = `${embedded.unavailable}, so LEXICAL ran instead`;
  if (plan.auto) {
    const auto = {
      ...plan.auto,
      retrievers: plan.auto.retrievers.filter((r) => r.strategy.name !== "VECTOR"),
    };
    return {
      ...plan,
      auto,
      queryVector: null,
      generation,
      routing: {
        ...plan.routing,
        reason: `${plan.routing.reason}; VECTOR left out: ${embedded.unavailable}`,
      },
    };
  }
  const routing = {
    ...plan.routing,
    degraded_from: plan.strategy.name,
    reason: `${plan.routing.reason}; ${why}`,
  };
  return { ...plan, strategy: strategyNamed("LEXICAL"), routing, queryVector: null, generation };
}
