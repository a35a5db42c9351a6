// LEXICAL: BM25 over the agent's memories (from the postings of sql/0430), the all-words tier first
// only when the query uses websearch operators (quoted phrases, -word, or), and trigram similarity
// for short or misspelt queries when those found too few.
import type { Tx } from "../../../data/pools";
import { cancellable, type RecallRow } from "../../../data/queries/recall/common";
import {
  allThenAnyWords,
  anyWordSearch,
  setTrigramThreshold,
  trigramSearch,
} from "../../../data/queries/recall/lexical";
import {
  everyLexemeRequired,
  isShortQuery,
  prefixQueryOf,
  usesWebsearchOperators,
} from "../query-words";
import type { RecallSearch, RecallStrategy, StrategyOutcome } from "../strategy";
import { anyWordTermsOf } from "../any-word-terms";

const TRIGRAM_THRESHOLD = 0.5;
/**
 * Under a narrowing filter, BM25 ranks the most recent memories that pass it, so its cost stays
 * bounded.
 */
export const ANY_WORD_SCAN_LIMIT = 5_000;
/**
 * word_similarity is costly per row: the trigram fallback compares the agent's most recent memories
 * only.
 */
export const TRIGRAM_SCAN_LIMIT = 5_000;

export const lexicalStrategy: RecallStrategy = {
  name: "LEXICAL",
  description: "Exact words, names, identifiers, quoted phrases; short keyword queries.",
  needsEmbedding: false,
  // Each statement below fixes its own shape; planning them on every call cost as much as running
  // them.
  genericPlans: true,
  run: searchInTiers,
};

async function searchInTiers(tx: Tx, search: RecallSearch): Promise<StrategyOutcome> {
  const { filter, query, topK, signal } = search;
  const terms = anyWordTermsOf(query, { related: false });
  const notes: string[] = [];
  const bm25 = { words: terms.words, weights: terms.weights, scanLimit: ANY_WORD_SCAN_LIMIT };
  let rows: RecallRow[];
  if (usesWebsearchOperators(query)) {
    // Quotes and exclusions ask for exact wording: the documents that satisfy them come first.
    const prefix = prefixQueryOf(query);
    const whole = {
      filter,
      text: query,
      prefix,
      everyLexemeRequired: everyLexemeRequired(query, prefix),
      limit: topK,
    };
    const tiered = await cancellable(allThenAnyWords(tx, whole, { ...bm25, limit: topK }), signal);
    rows = tiered.map(({ tier: _tier, sort_key: _key, ...row }) => row);
    const more = tiered.filter((r) => r.tier === 2).length;
    if (more > 0) notes.push(`${more} result(s) match only some of the words`);
  } else {
    const ranked =
      terms.words.length === 0
        ? []
        : await cancellable(
            anyWordSearch(tx, { filter, ...bm25, limit: topK, excludeIds: [] }),
            signal,
          );
    rows = ranked.map(({ raw: _raw, ...row }) => row);
  }
  if (rows.length < topK && isShortQuery(query)) {
    await setTrigramThreshold(tx, TRIGRAM_THRESHOLD);
    const fuzzy = await cancellable(
      trigramSearch(tx, {
        filter,
        text: query,
        excludeIds: rows.map((r) => r.memory_id),
        limit: topK - rows.length,
        scanLimit: TRIGRAM_SCAN_LIMIT,
      }),
      signal,
    );
    if (fuzzy.length > 0) notes.push(`trigram fallback added ${fuzzy.length} result(s)`);
    rows.push(...fuzzy);
  }
  return { rows, note: notes.length > 0 ? notes.join("; ") : undefined };
}
