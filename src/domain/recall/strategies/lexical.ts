// LEXICAL: weighted, phrase-aware full text; short or misspelt queries also get prefix and trigram matches.
import { cancellable } from "../../../data/queries/recall-common";
import { fullTextSearch, setTrigramThreshold, trigramSearch } from "../../../data/queries/recall-lexical";
import type { RecallStrategy } from "../strategy";

/** Queries of at most this many words count as short: they get a prefix query and the trigram fallback. */
const SHORT_QUERY_WORDS = 4;
const TRIGRAM_THRESHOLD = 0.5;
/** The fuzzy fallback compares the agent's most recent memories only, so its cost stays bounded. */
export const TRIGRAM_SCAN_LIMIT = 5000;

/** `word:*` on the last word of a short query, restricted to [a-z0-9] so it is always valid tsquery text. */
export function prefixQueryOf(query: string): string | null {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0 || words.length > SHORT_QUERY_WORDS) return null;
  const last = words[words.length - 1]!;
  return /^[a-z0-9]{2,}$/.test(last) ? `${last}:*` : null;
}

export const lexicalStrategy: RecallStrategy = {
  name: "LEXICAL",
  description: "Exact words, names, identifiers, quoted phrases; short keyword queries.",
  needsEmbedding: false,
  async run(tx, search) {
    const words = search.query.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    const rows = await cancellable(fullTextSearch(tx, {
      filter: search.filter,
      text: search.query,
      prefix: prefixQueryOf(search.query),
      limit: search.topK,
    }), search.signal);
    if (rows.length >= search.topK || words === 0 || words > SHORT_QUERY_WORDS) return { rows };
    await setTrigramThreshold(tx, TRIGRAM_THRESHOLD);
    const fuzzy = await cancellable(trigramSearch(tx, {
      filter: search.filter,
      text: search.query,
      excludeIds: rows.map((r) => r.memory_id),
      limit: search.topK - rows.length,
      scanLimit: TRIGRAM_SCAN_LIMIT,
    }), search.signal);
    return { rows: [...rows, ...fuzzy], note: fuzzy.length > 0 ? `trigram fallback added ${fuzzy.length} result(s)` : undefined };
  },
};
