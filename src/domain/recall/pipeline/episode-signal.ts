// AUTO's episode signal: the candidates of the sessions that best match the question as a whole
// rank higher. A question's words are often spread over a session ("the trip" in one turn, "the
// kids" in the next, the answer in a third), so no single turn matches them all while the session
// does. An episode is the agent's memories sharing one occurred_at (a session stored one memory per
// turn, as neighbour-signal.ts reads it); its turns are scored together by BM25
// (data/queries/recall/episodes.ts).
import type { FusedRow } from "../fusion";
import type { EpisodeScore } from "../../../data/queries/recall/episodes";

/**
 * The best EPISODE_TOP episodes lift their candidates: the r-th best (1-based) multiplies their
 * scores by 1 + EPISODE_BOOST / r. Chosen on the even questions of LoCoMo's development split
 * (docs/benchmarks.md, "Episodes in AUTO"): 2 and 1.5, with the neighbours' share at 0.5; 3
 * episodes, or a boost of 1–2, score within 0.01 of it on both halves.
 */
export const EPISODE_TOP = 2;
export const EPISODE_BOOST = 1.5;
/**
 * More memories under one occurred_at than this are a bulk load's date, not a session; one memory
 * alone is not one either (recall-episodes.ts skips both).
 */
export const EPISODE_MAX_MEMBERS = 200;

/** The rows with the best episodes' candidates lifted (scores only: the caller sorts). */
export function liftBestEpisodes(rows: FusedRow[], best: EpisodeScore[]): FusedRow[] {
  if (best.length === 0) return rows;
  const instant = (at: Date) => new Date(at).getTime();
  const rank = new Map(best.map((e, i) => [instant(e.occurred_at), i + 1]));
  return rows.map((row) => {
    const r = rank.get(instant(row.occurred_at));
    return r === undefined ? row : { ...row, score: row.score * (1 + EPISODE_BOOST / r) };
  });
}
