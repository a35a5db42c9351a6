// AUTO's neighbouring-turn signal: a turn next to a strong candidate in its conversation shares in
// that candidate's score. The answer is often the reply to (or the line before) the turn that holds
// the question's words: "what did you see there?" matches one turn, the answer is the next.
import type { FusedRow } from "../fusion";
import type { NeighbourTurnRow } from "../../../data/queries/recall/neighbours";

/** Turns this many positions either side share in a candidate's score. */
export const NEIGHBOUR_SPAN = 2;
/**
 * A turn d positions away receives NEIGHBOUR_SHARE / d of the candidate's fused score. Measured on
 * LoCoMo's development split (docs/benchmarks.md, "Neighbouring turns"): alone, 0.3 over a span of
 * 2 kept nDCG@10 and 0.5 lowered it; beside the episode signal (episode-signal.ts, "Episodes in
 * AUTO") 0.5 scores best on the even questions, with R@10, MRR and nDCG@10 all above 0.3 alone.
 */
export const NEIGHBOUR_SHARE = 0.5;

/**
 * The fused rows with their neighbours' shares added; a neighbour no retriever found joins the
 * candidates, naming the retrievers of the turn it sits next to. Shares come from the fused
 * scores before any is added, so the order in which candidates are visited does not matter.
 */
export function spreadToNeighbours(rows: FusedRow[], neighbours: NeighbourTurnRow[]): FusedRow[] {
  const copy = (row: FusedRow) => ({ ...row, retrievers: [...row.retrievers] });
  const byId = new Map(rows.map((row) => [row.memory_id, copy(row)]));
  const fusedScore = new Map(rows.map((row) => [row.memory_id, row.score]));
  for (const { hit, offset, ...turn } of neighbours) {
    const from = byId.get(hit);
    const base = fusedScore.get(hit);
    if (!from || base === undefined) continue;
    const share = (NEIGHBOUR_SHARE * base) / Math.abs(offset);
    const seen = byId.get(turn.memory_id);
    if (seen) {
      seen.score += share;
      continue;
    }
    byId.set(turn.memory_id, { ...turn, score: share, retrievers: [...from.retrievers] });
  }
  return [...byId.values()];
}
