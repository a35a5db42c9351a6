// Reciprocal-rank fusion, a request option (docs/recall.md, "Fusion"): the listed strategies run in
// the recall's one tenant transaction, each to a depth of at least FUSION_DEPTH, and every memory
// scores Σ 1/(k + rank) over the lists it appears in. The response's `strategy` is the first listed
// strategy that ran; `fusion` lists all.
import type { RecallRow } from "../../data/queries/recall/common";
import type { FieldProblem } from "../../lib/errors";
import type { ConcreteStrategyName, RecallSearch, RecallStrategy, StrategyEnv } from "./strategy";

/**
 * The strategies that rank memories by the query; ASK answers a question and CYPHER runs a query
 * language.
 */
export const FUSABLE_STRATEGIES = [
  "VECTOR",
  "LEXICAL",
  "TEMPORAL",
  "CODE",
  "GRAPH",
  "TRIPLET",
  "TRACE",
] as const satisfies readonly ConcreteStrategyName[];
export const FUSION_K_DEFAULT = 60;
/**
 * Each fused strategy returns at least this many candidates, so a memory ranked 11th by one list
 * still counts.
 */
export const FUSION_DEPTH = 30;

export type FusionRequest = { strategies: ConcreteStrategyName[]; k: number };
export type FusionMember = { strategy: RecallStrategy; prepared: unknown };
export type FusionPlan = { k: number; members: FusionMember[]; notes: string[] };
/** What the response says about a fused recall. */
export type FusionSummary = { strategies: ConcreteStrategyName[]; k: number };

/** Request checks TypeBox cannot express; problems name the field. */
export function fusionProblems(strategies: string[], pinned: string | undefined): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (pinned !== undefined && pinned !== "AUTO")
    problems.push({
      path: "/strategy",
      message:
        "must be omitted (or AUTO) when fusion is given: fusion.strategies names the strategies",
    });
  const seen = new Set<string>();
  strategies.forEach((name, i) => {
    if (!(FUSABLE_STRATEGIES as readonly string[]).includes(name))
      problems.push({
        path: `/fusion/strategies/${i}`,
        message: `${name} cannot be fused; fusable: ${FUSABLE_STRATEGIES.join(", ")}`,
      });
    else if (seen.has(name))
      problems.push({ path: `/fusion/strategies/${i}`, message: `${name} is listed twice` });
    seen.add(name);
  });
  return problems;
}

export type PlannedFusion = {
  fusion: FusionPlan;
  queryVector: number[] | null;
  degradedFrom?: ConcreteStrategyName;
};

/**
 * Plans a fused recall outside the transaction: embeds the query once if a member needs it (an
 * embedding outage drops VECTOR, and LEXICAL takes its place unless already listed), then runs each
 * member's prepare step.
 */
export async function planFusion(
  request: FusionRequest,
  named: (name: ConcreteStrategyName) => RecallStrategy,
  embed: () => Promise<number[] | null>,
  env: StrategyEnv,
  searchFor: (queryVector: number[] | null) => RecallSearch,
): Promise<PlannedFusion> {
  let strategies = request.strategies.map(named);
  const notes: string[] = [];
  const queryVector = strategies.some((s) => s.needsEmbedding) ? await embed() : null;
  let degradedFrom: ConcreteStrategyName | undefined;
  if (queryVector === null && strategies.some((s) => s.needsEmbedding)) {
    degradedFrom = strategies.find((s) => s.needsEmbedding)!.name;
    const lexical = named("LEXICAL");
    strategies = strategies
      .map((s) => (s.needsEmbedding ? lexical : s))
      .filter((s, i, all) => all.indexOf(s) === i);
    notes.push(
      "the embedding provider is unavailable, so VECTOR was left out (LEXICAL in its place)",
    );
  }
  const search = searchFor(queryVector);
  const members: FusionMember[] = [];
  for (const strategy of strategies)
    members.push({
      strategy,
      prepared: strategy.prepare ? await strategy.prepare(env, search) : undefined,
    });
  return {
    fusion: { k: request.k, members, notes },
    queryVector,
    ...(degradedFrom ? { degradedFrom } : {}),
  };
}

export const fusionSummary = (plan: FusionPlan): FusionSummary => ({
  strategies: plan.members.map((m) => m.strategy.name),
  k: plan.k,
});

/** One ranked list to fuse: the retriever that produced it and its weight. */
export type RankedList = { name: ConcreteStrategyName; weight: number; rows: RecallRow[] };
export type FusedRow = RecallRow & { retrievers: ConcreteStrategyName[] };

/**
 * Σ weight/(k + rank) per memory (rank 1-based), best first. A memory keeps the row of the first
 * list that found it (with a graph link when a later list has one), and lists every retriever that
 * found it.
 */
export function reciprocalRankFusion(lists: RankedList[], k: number): FusedRow[] {
  const fused = new Map<string, FusedRow>();
  for (const list of lists) {
    list.rows.forEach((row, i) => {
      const add = list.weight / (k + i + 1);
      const seen = fused.get(row.memory_id);
      if (!seen) fused.set(row.memory_id, { ...row, score: add, retrievers: [list.name] });
      else {
        seen.score += add;
        if (!seen.retrievers.includes(list.name)) seen.retrievers.push(list.name);
        if (!seen.graph && row.graph) seen.graph = row.graph;
      }
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
