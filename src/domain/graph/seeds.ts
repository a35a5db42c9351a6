// Where a graph strategy starts: the memos the query names. Every 1- to 4-word n-gram of the query
// is normalised like memo names (possessive 's removed) and matched against names and aliases by
// btree equality; longer matches score higher ("New York City" beats "York").
import { findMemosByNames, type MemoRow } from "../../data/queries/graph/memos";
import type { Tx } from "../../data/pools";
import { normalizeName } from "./normalize";

const MAX_WORDS = 4;
const MAX_NGRAMS = 256;
/**
 * Words that are never an entity on their own (a memo named "is" would otherwise seed every
 * question).
 */
const STOPWORDS = new Set(
  (
    "a an the and or but of to in on at by for with from as is are was were be been being do does did has have had " +
    "i me my we our you your he him his she her it its they them their this that these those what which who whom whose where when why how " +
    "not no yes all any some there here than then so if about into over under again more most very can will would should could may might " +
    "tell show find give list between since until after before during"
  ).split(" "),
);

/** Candidate names in the query, each with the number of words it spans. */
export function queryNames(query: string): Map<string, number> {
  const words = query
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}./_#@-]+|[^\p{L}\p{N}+#]+$/gu, "").replace(/['’]s$/iu, ""))
    .filter(Boolean);
  const names = new Map<string, number>();
  for (let n = Math.min(MAX_WORDS, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length && names.size < MAX_NGRAMS; i++) {
      const slice = words.slice(i, i + n);
      if (slice.every((w) => STOPWORDS.has(w.toLowerCase()))) continue;
      const name = normalizeName(slice.join(" "));
      if (name && !names.has(name)) names.set(name, n);
    }
  }
  return names;
}

export type Seed = { memo: MemoRow; matched: string; score: number };

/** Memos named in the query, best (longest, most mentioned) first. */
export async function seedsFromQuery(
  tx: Tx,
  orgId: string,
  agentId: string,
  query: string,
  limit: number,
): Promise<Seed[]> {
  const names = queryNames(query);
  const rows = await findMemosByNames(tx, orgId, agentId, [...names.keys()], limit * 4);
  const matched = [...new Set(rows.map((r) => r.matched))];
  // "york" inside a matched "new york city" is the same mention, not a second entity.
  const inside = (name: string) =>
    matched.some((other) => other !== name && ` ${other} `.includes(` ${name} `));
  return rows
    .filter((memo) => !inside(memo.matched))
    .map((memo) => ({
      memo,
      matched: memo.matched,
      score: Math.min(1, 0.6 + 0.2 * (names.get(memo.matched) ?? 1)),
    }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.memo.mention_count - a.memo.mention_count ||
        (a.memo.memo_id < b.memo.memo_id ? -1 : 1),
    )
    .slice(0, limit);
}
