// LEXICAL: weighted, phrase-aware full text in three tiers — all words (phrases first), then any word
// when that found too few (both in one statement), then trigram similarity for short or misspelt queries.
import type { Tx } from "../../../data/pools";
import { cancellable, type RecallRow } from "../../../data/queries/recall-common";
import { allThenAnyWords, setTrigramThreshold, trigramSearch } from "../../../data/queries/recall-lexical";
import { everyLexemeRequired, isShortQuery, prefixQueryOf, wordCount } from "../query-words";
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
  // Each statement below fixes its own shape; planning them on every call cost as much as running them.
  genericPlans: true,
  run: searchInTiers,
};

async function searchInTiers(tx: Tx, search: RecallSearch): Promise<StrategyOutcome> {
  const { filter, query, topK, signal } = search;
  const terms = anyWordTermsOf(query);
  const anyWords = terms.words.length > 0 && wordCount(query) > 1;
  const prefix = prefixQueryOf(query);
  const tiered = await cancellable(allThenAnyWords(tx, { filter, text: query, prefix, everyLexemeRequired: everyLexemeRequired(query, prefix), limit: topK }, {
    words: terms.words, weights: terms.weights, limit: anyWords ? topK : 0, scanLimit: ANY_WORD_SCAN_LIMIT,
  }), signal);
  const rows: RecallRow[] = tiered.map(({ tier: _tier, sort_key: _key, ...row }) => row);
  const notes: string[] = [];
  const more = tiered.filter((r) => r.tier === 2).length;
  if (more > 0) notes.push(`${more} result(s) match only some of the words${terms.expansions > 0 ? ` or ${terms.expansions} related word(s) (WordNet)` : ""}`);
  if (rows.length < topK && isShortQuery(query)) {
    await setTrigramThreshold(tx, TRIGRAM_THRESHOLD);
    const fuzzy = await cancellable(trigramSearch(tx, { filter, text: query, excludeIds: rows.map((r) => r.memory_id), limit: topK - rows.length, scanLimit: TRIGRAM_SCAN_LIMIT }), signal);
    if (fuzzy.length > 0) notes.push(`trigram fallback added ${fuzzy.length} result(s)`);
    rows.push(...fuzzy);
  }
  return { rows, note: notes.length > 0 ? notes.join("; ") : undefined };
}
