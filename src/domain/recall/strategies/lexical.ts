// LEXICAL: weighted, phrase-aware full text in three tiers — all words (phrases first), then any word
// when that found too few, then trigram similarity for short or misspelt queries.
import type { Tx } from "../../../data/pools";
import { allowGenericPlans, cancellable, restoreCustomPlans, type RecallRow } from "../../../data/queries/recall-common";
import { anyWordSearch, fullTextSearch, setTrigramThreshold, trigramSearch } from "../../../data/queries/recall-lexical";
import { isShortQuery, prefixQueryOf, wordCount } from "../query-words";
import type { RecallSearch, RecallStrategy, StrategyOutcome } from "../strategy";
import { anyWordTermsOf } from "../any-word-terms";

const TRIGRAM_THRESHOLD = 0.5;
/** The fallbacks compare the agent's most recent memories only, so their cost stays bounded. */
export const ANY_WORD_SCAN_LIMIT = 5_000;
export const TRIGRAM_SCAN_LIMIT = 5_000;

export const lexicalStrategy: RecallStrategy = {
  name: "LEXICAL",
  description: "Exact words, names, identifiers, quoted phrases; short keyword queries.",
  needsEmbedding: false,
  async run(tx, search) {
    // Generic plans: each query below fixes its own shape, and planning them cost more than running them.
    allowGenericPlans(tx);
    try {
      return await searchInTiers(tx, search);
    } finally {
      restoreCustomPlans(tx);
    }
  },
};

async function searchInTiers(tx: Tx, search: RecallSearch): Promise<StrategyOutcome> {
  const { filter, query, topK, signal } = search;
  const rows: RecallRow[] = await cancellable(fullTextSearch(tx, { filter, text: query, prefix: prefixQueryOf(query), limit: topK }), signal);
  const notes: string[] = [];
  const terms = anyWordTermsOf(query);
  if (rows.length < topK && terms.words.length > 0 && wordCount(query) > 1) {
    const more = await cancellable(anyWordSearch(tx, { filter, words: terms.words, weights: terms.weights, excludeIds: rows.map((r) => r.memory_id), limit: topK - rows.length, scanLimit: ANY_WORD_SCAN_LIMIT }), signal);
    if (more.length > 0) notes.push(`${more.length} result(s) match only some of the words${terms.expansions > 0 ? ` or ${terms.expansions} related word(s) (WordNet)` : ""}`);
    rows.push(...more);
  }
  if (rows.length < topK && isShortQuery(query)) {
    await setTrigramThreshold(tx, TRIGRAM_THRESHOLD);
    const fuzzy = await cancellable(trigramSearch(tx, { filter, text: query, excludeIds: rows.map((r) => r.memory_id), limit: topK - rows.length, scanLimit: TRIGRAM_SCAN_LIMIT }), signal);
    if (fuzzy.length > 0) notes.push(`trigram fallback added ${fuzzy.length} result(s)`);
    rows.push(...fuzzy);
  }
  return { rows, note: notes.length > 0 ? notes.join("; ") : undefined };
}
