// Stage 4: one ranked list from the retrieved ones. A pinned strategy's list as it came; a
// requested fusion by plain reciprocal rank; AUTO by weighted reciprocal rank, its candidates'
// neighbouring turns sharing in their scores (neighbour-signal.ts), the candidates of the best
// matching episodes lifted (episode-signal.ts), then re-ranked by general signals of the query
// (rerank-signals.ts). Each row names the retrievers that found it.
import { reciprocalRankFusion, type FusedRow } from "../fusion";
import type { ConcreteStrategyName } from "../strategy";
import type { Retrieved } from "./retrieve";
import { liftBestEpisodes } from "./episode-signal";
import { spreadToNeighbours } from "./neighbour-signal";
import { querySignals, signalBoost } from "./rerank-signals";
import type { RecallPlan } from "./types";

export type Fused = { rows: FusedRow[]; strategy: ConcreteStrategyName };

export function fuse(plan: RecallPlan, retrieved: Retrieved): Fused {
  if (plan.auto) return fuseAuto(plan, retrieved);
  if (plan.fusion)
    return {
      rows: reciprocalRankFusion(retrieved.lists, plan.fusion.k).slice(0, plan.topK),
      strategy: plan.strategy.name,
    };
  const list = retrieved.lists[0]!;
  return {
    rows: list.rows.map((row) => ({ ...row, retrievers: [list.name] })),
    strategy: plan.strategy.name,
  };
}

function fuseAuto(plan: RecallPlan, retrieved: Retrieved): Fused {
  const auto = plan.auto!;
  const signals = querySignals({
    query: plan.input.query,
    window: auto.window,
    windowWeight: auto.windowWeight,
  });
  const fused = reciprocalRankFusion(retrieved.lists, auto.k);
  const spread = spreadToNeighbours(fused, retrieved.neighbours ?? []);
  const rows = liftBestEpisodes(spread, plan.input.query)
    .map((row) => ({ ...row, score: row.score * signalBoost(signals, row) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, plan.topK);
  return { rows, strategy: leadingRetriever(rows[0], retrieved) };
}

/**
 * The response's `strategy`: the heaviest retriever that found the first result (LEXICAL when none
 * did).
 */
function leadingRetriever(top: FusedRow | undefined, retrieved: Retrieved): ConcreteStrategyName {
  if (!top) return "LEXICAL";
  const found = retrieved.lists.filter((l) => top.retrievers.includes(l.name));
  return found.sort((a, b) => b.weight - a.weight)[0]?.name ?? "LEXICAL";
}
