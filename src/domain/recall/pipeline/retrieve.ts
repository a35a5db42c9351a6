// Stage 3, inside the recall's tenant transaction: the ranked lists to fuse. A pinned strategy
// gives one; a requested fusion one per member; AUTO one per retriever: LEXICAL in the recall's
// transaction, the others beside it each in a transaction of its own while the tenant's share and
// the pool have room (else after LEXICAL, each in a savepoint), so a slow or failing one is dropped
// (and named in the note) while the others still answer.
import { isQueryTimeout } from "../../../data/errors";
import { AppError } from "../../../lib/errors";
import {
  limitRecallTransaction,
  RecallCancelledError,
  type RecallRow,
} from "../../../data/queries/recall/common";
import { withTenantBeside } from "../../../data/with-tenant";
import type { Tx } from "../../../data/pools";
import type { Actor } from "../../actor";
import { FUSION_DEPTH, type RankedList } from "../fusion";
import type { GraphEvidence } from "../../../data/graph-evidence";
import { AVAILABLE_NAMES, strategyNamed } from "../registry";
import type { AutoPlan, AutoRetriever } from "../route-auto";
import { entityRule } from "../routing/graph-rules";
import type { RecallSearch, StrategyOutcome } from "../strategy";
import type { TimeWindow } from "../time-expressions";
import {
  neighbourEpisodeRows,
  neighbourTurnRows,
  type NeighbourTurnRow,
} from "../../../data/queries/recall/neighbours";
import { lexicalWithFeedback } from "./feedback";
import { NEIGHBOUR_SPAN } from "./neighbour-signal";
import { searchOf } from "./search";
import { afterFixedShapes } from "./settings";
import type { RecallDeps, RecallPlan } from "./types";

export type Retrieved = {
  lists: RankedList[];
  notes: string[];
  /** TEMPORAL's window, or AUTO's time signal. */
  window: TimeWindow | null;
  graph?: GraphEvidence;
  /** AUTO: why the entity rule added a graph strategy. */
  entityReason?: string;
  /** AUTO: the conversation turns next to its candidates (neighbour-signal.ts). */
  neighbours?: NeighbourTurnRow[];
};

const depth = (plan: RecallPlan) => Math.max(plan.topK, FUSION_DEPTH);

export async function retrieve(
  tx: Tx,
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  signal?: AbortSignal,
): Promise<Retrieved> {
  if (plan.auto) return retrieveAuto(tx, deps, actor, plan, plan.auto, signal);
  if (plan.fusion) {
    const search = searchOf(deps, actor, plan, signal, depth(plan));
    const outcomes: StrategyOutcome[] = [];
    for (const m of plan.fusion.members)
      outcomes.push(await m.strategy.run(tx, search, m.prepared));
    const lists = plan.fusion.members.map((m, i) => ({
      name: m.strategy.name,
      weight: 1,
      rows: outcomes[i]!.rows,
    }));
    const per = lists.map(
      (l, i) => `${l.name} ${l.rows.length}${outcomes[i]!.note ? ` (${outcomes[i]!.note})` : ""}`,
    );
    const notes = [
      `reciprocal-rank fusion (k=${plan.fusion.k}) of ${per.join(", ")}`,
      ...plan.fusion.notes,
    ];
    return {
      lists,
      notes,
      window: outcomes.find((o) => o.window !== undefined)?.window ?? null,
      ...graphOf(outcomes),
    };
  }
  const ran = await plan.strategy.run(tx, searchOf(deps, actor, plan, signal), plan.prepared);
  return {
    lists: [{ name: plan.strategy.name, weight: 1, rows: ran.rows }],
    notes: ran.note ? [ran.note] : [],
    window: ran.window ?? null,
    ...graphOf([ran]),
  };
}

function graphOf(outcomes: StrategyOutcome[]): { graph?: GraphEvidence } {
  const graph = outcomes.find((o) => o.graph !== undefined)?.graph;
  return graph ? { graph } : {};
}

async function retrieveAuto(
  tx: Tx,
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  auto: AutoPlan,
  signal?: AbortSignal,
): Promise<Retrieved> {
  const search = searchOf(deps, actor, plan, signal, depth(plan));
  const [first, ...others] = auto.retrievers;
  const lexicalFirst = first!.strategy.name === "LEXICAL";
  // Started before LEXICAL, so that each given a transaction of its own runs while LEXICAL does.
  const entity = auto.entityRule
    ? aside(tx, deps, actor, (t) => entityRetriever(t, deps, actor, plan, search, signal))
    : null;
  const rest = (lexicalFirst ? others : [first!, ...others]).map((r) => ({
    r,
    outcome: aside(tx, deps, actor, (t) => r.strategy.run(t, search, r.prepared)),
  }));
  const lists: RankedList[] = [];
  let timedOut = false;
  let failed = 0;
  const notes: string[] = [];
  const outcomes: StrategyOutcome[] = [];
  const record = (r: AutoRetriever, outcome: StrategyOutcome | string) => {
    if (typeof outcome === "string") {
      timedOut ||= outcome.startsWith("did not finish");
      failed += 1;
      notes.push(`${r.strategy.name} left out: ${outcome}`);
      return;
    }
    outcomes.push(outcome);
    lists.push({ name: r.strategy.name, weight: r.weight, rows: outcome.rows });
    if (outcome.note) notes.push(`${r.strategy.name}: ${outcome.note}`);
  };
  // LEXICAL first, on the generic plans its statements are shaped for; then custom plans for the
  // others. Its second pass, with the first's best memories as feedback, takes its place
  // (feedback.ts); each pass in its own savepoint, so a failing feedback pass still leaves
  // LEXICAL's list.
  if (lexicalFirst) {
    record(
      first!,
      await isolated(tx, deps, actor, (sp) => first!.strategy.run(sp, search, first!.prepared)),
    );
    const lexical = lists.find((l) => l.name === "LEXICAL");
    const fed = lexical
      ? await isolated(tx, deps, actor, (sp) => lexicalWithFeedback(sp, search, lexical.rows))
      : null;
    if (typeof fed === "string") notes.push(`LEXICAL's feedback pass left out: ${fed}`);
    else if (fed && fed.length > 0) lexical!.rows = fed;
  }
  afterFixedShapes(tx);
  // A failing entity rule adds no retriever; its retriever failing is named like the others.
  const found = entity ? await entity() : null;
  const byEntity = found && typeof found !== "string" ? found : null;
  if (byEntity) record(byEntity.retriever, byEntity.outcome);
  for (const { r, outcome } of rest) record(r, await outcome());
  // Only when every retriever failed is the recall unavailable (the cause is in the log).
  if (lists.length === 0 && failed > 0) {
    const why = timedOut
      ? `did not finish within ${deps.config.RECALL_TIMEOUT_MS} ms; narrow the query or retry`
      : "failed; retry";
    throw new AppError("service-unavailable", `The recall ${why}`);
  }
  const counts = lists.map((l) => `${l.name} ${l.rows.length}`).join(", ");
  // Turns carry their conversation in metadata (conversations/turns.ts): their neighbours are
  // turns; other candidates' are the memories stored next to them in the same episode.
  const isTurn = (row: RecallRow) => typeof row.metadata?.conversation_id === "string";
  // Stored without occurred_at (prepare.ts sets it to created_at): no episode, nothing to read, so
  // an agent of documents (SciFact, code) pays no savepoint and no statement for this signal.
  const inEpisode = (row: RecallRow) =>
    new Date(row.occurred_at).getTime() !== new Date(row.created_at).getTime();
  const rows = lists.flatMap((l) => l.rows);
  const turns = [...new Set(rows.filter(isTurn).map((row) => row.memory_id))];
  const loose = [
    ...new Set(rows.filter((row) => !isTurn(row) && inEpisode(row)).map((row) => row.memory_id)),
  ];
  const read = async (sp: Tx) => ({
    neighbours: [
      ...(turns.length === 0
        ? []
        : await neighbourTurnRows(sp, search.filter, turns, NEIGHBOUR_SPAN)),
      ...(loose.length === 0
        ? []
        : await neighbourEpisodeRows(sp, search.filter, loose, NEIGHBOUR_SPAN)),
    ],
  });
  const around =
    turns.length + loose.length === 0 ? { neighbours: [] } : await isolated(tx, deps, actor, read);
  if (typeof around === "string") notes.push(`neighbouring turns left out: ${around}`);
  return {
    lists,
    notes: [`AUTO fused ${counts}`, ...notes],
    window: auto.window,
    ...graphOf(outcomes),
    ...(byEntity ? { entityReason: byEntity.retriever.why } : {}),
    ...(typeof around === "string" ? {} : around),
  };
}

/** The entity rule's retriever (weight 2) and its outcome, or null when the rule adds none. */
async function entityRetriever(
  tx: Tx,
  deps: RecallDeps,
  actor: Actor,
  plan: RecallPlan,
  search: RecallSearch,
  signal?: AbortSignal,
): Promise<{ retriever: AutoRetriever; outcome: StrategyOutcome | string } | null> {
  const decision = await entityRule(
    tx,
    actor.orgId,
    plan.input.agentId,
    plan.input.query,
    AVAILABLE_NAMES,
  );
  if (!decision) return null;
  const strategy = strategyNamed(decision.strategy);
  const prepared = strategy.prepare
    ? await strategy.prepare({ deps, orgId: actor.orgId, signal }, search)
    : undefined;
  const retriever = { strategy, weight: 2, why: decision.reason, prepared };
  const outcome = await isolated(tx, deps, actor, (sp) => strategy.run(sp, search, prepared));
  return { retriever, outcome };
}

/**
 * One retriever's work, in a tenant transaction of its own when the tenant's share and the pool
 * have room for one now (withTenantBeside), started at once; otherwise in a savepoint of the
 * recall's transaction when called. Either way a timeout or a database error comes back as why
 * it was left out, and a client's cancellation ends the recall.
 */
function aside<T>(
  tx: Tx,
  deps: RecallDeps,
  actor: Actor,
  work: (t: Tx) => Promise<T>,
): () => Promise<T | string> {
  const started = withTenantBeside(deps.db, actor.orgId, (own) => {
    limitRecallTransaction(own, deps.config.RECALL_TIMEOUT_MS);
    return work(own);
  });
  if (!started) return () => isolated(tx, deps, actor, work);
  const settled = started.catch((error) => leftOut(deps, actor, error));
  settled.catch(() => undefined); // a cancellation is observed here when the recall ends first
  return () => settled;
}

/**
 * Runs one retriever in a savepoint: a timeout or a database error rolls back to it and returns
 * why, and the transaction goes on. A client's cancellation still ends the recall.
 */
async function isolated<T>(
  tx: Tx,
  deps: RecallDeps,
  actor: Actor,
  run: (sp: Tx) => Promise<T>,
): Promise<T | string> {
  try {
    return (await tx.savepoint((sp) => run(sp))) as T;
  } catch (error) {
    return leftOut(deps, actor, error);
  }
}

/** Why a retriever was left out (logged); a client's cancellation is thrown on. */
function leftOut(deps: RecallDeps, actor: Actor, error: unknown): string {
  if (error instanceof RecallCancelledError) throw error;
  const why = isQueryTimeout(error)
    ? `did not finish within ${deps.config.RECALL_TIMEOUT_MS} ms`
    : "failed";
  deps.log.warn({
    msg: "an AUTO retriever was left out",
    request_id: actor.requestId,
    err: (error as Error).message,
  });
  return why;
}
