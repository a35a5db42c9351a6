// AUTO's episode signal: the candidates of the sessions that best match the question as a whole
// rank higher. A question's words are often spread over a session ("the trip" in one turn, "the
// kids" in the next, the answer in a third), so no single turn matches them all while the session
// does. An episode is a conversation's turns, or the loose memories sharing one occurred_at (a
// session stored one memory per turn, as neighbour-signal.ts reads it).
//
// Scored in process over the candidates themselves (the retrievers' lists and their neighbours):
// each episode's candidates are one document, ranked by BM25 among the candidates' episodes. The
// candidates hold most of a session's words that matter, and no statement reads postings for it.
import { ENGLISH_STOP_WORDS } from "../../../lib/english-stop-words";
import type { FusedRow } from "../fusion";

/**
 * The best EPISODE_TOP episodes lift their candidates: the r-th best (1-based) multiplies their
 * scores by 1 + EPISODE_BOOST / r. Chosen on the even questions of LoCoMo's development split
 * (docs/benchmarks.md, "Episodes in AUTO", and "Episodes scored in process" for this scoring,
 * which kept them: 3 episodes or a boost of 1 score within 0.01 on both halves).
 */
export const EPISODE_TOP = 2;
export const EPISODE_BOOST = 1.5;
/**
 * More candidates under one occurred_at than this are a bulk load's date, not a session; one
 * candidate alone is no episode either (nothing to gather).
 */
export const EPISODE_MAX_MEMBERS = 200;
/** Okapi BM25's usual constants, with an episode as the document. */
const K1 = 1.2;
const B = 0.75;

/** The rows with the best episodes' candidates lifted (scores only: the caller sorts). */
export function liftBestEpisodes(rows: FusedRow[], query: string): FusedRow[] {
  const best = bestEpisodes(rows, query);
  if (best.length === 0) return rows;
  const rank = new Map(best.map((key, i) => [key, i + 1]));
  return rows.map((row) => {
    const key = episodeOf(row);
    const r = key === null ? undefined : rank.get(key);
    return r === undefined ? row : { ...row, score: row.score * (1 + EPISODE_BOOST / r) };
  });
}

/**
 * A turn's episode is its conversation; a loose memory's its occurred_at, unless that is its
 * created_at: stored without one (src/domain/memories/prepare.ts), it has no episode.
 */
function episodeOf(row: FusedRow): string | null {
  const conversation = row.metadata?.conversation_id;
  if (typeof conversation === "string") return `conversation ${conversation}`;
  const at = new Date(row.occurred_at).getTime();
  return at === new Date(row.created_at).getTime() ? null : `at ${at}`;
}

const WORD = /[\p{L}\p{N}]+/gu;

const wordsOf = (text: string) =>
  (text.toLowerCase().match(WORD) ?? []).filter((w) => !ENGLISH_STOP_WORDS.has(w));

/** The keys of the EPISODE_TOP episodes that best match the query, best first. */
function bestEpisodes(rows: FusedRow[], query: string): string[] {
  const queryWords = new Set(wordsOf(query));
  if (queryWords.size === 0) return [];
  const members = new Map<string, FusedRow[]>();
  for (const row of rows) {
    const key = episodeOf(row);
    if (key === null) continue;
    const known = members.get(key);
    if (known) known.push(row);
    else members.set(key, [row]);
  }
  const episodes = [...members]
    .filter(([, rows]) => rows.length >= 2 && rows.length <= EPISODE_MAX_MEMBERS)
    .map(([key, rows]) => ({ key, ...queryTermCounts(rows, queryWords) }));
  const docs = new Map<string, number>();
  for (const e of episodes) for (const w of e.tf.keys()) docs.set(w, (docs.get(w) ?? 0) + 1);
  const average = episodes.reduce((sum, e) => sum + e.length, 0) / Math.max(1, episodes.length);
  const scored = episodes.map(({ key, tf, length }) => {
    let score = 0;
    for (const w of queryWords) {
      const f = tf.get(w);
      if (!f) continue;
      const n = docs.get(w)!;
      const idf = Math.log(1 + (episodes.length - n + 0.5) / (n + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / average));
    }
    return { key, score };
  });
  return scored
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
    .slice(0, EPISODE_TOP)
    .map((e) => e.key);
}

/**
 * An episode's length in words and the counts of the query's words in it: BM25 reads no other
 * word's count, so no other is kept.
 */
function queryTermCounts(
  rows: FusedRow[],
  queryWords: ReadonlySet<string>,
): { tf: Map<string, number>; length: number } {
  const tf = new Map<string, number>();
  let length = 0;
  for (const row of rows)
    for (const w of row.content.toLowerCase().match(WORD) ?? []) {
      if (ENGLISH_STOP_WORDS.has(w)) continue;
      length++;
      if (queryWords.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
    }
  return { tf, length };
}
