// AUTO's pseudo-relevance feedback: LEXICAL's best memories lend their distinctive words to a
// second BM25 pass, whose list takes LEXICAL's place in the fusion. The answer often shares few
// words with the question but many with the memories that do ("what does the cat play with?" finds
// the turn about the cat; the next one about the laser toy never says "cat").
import { cancellable, type RecallRow } from "../../../data/queries/recall/common";
import { anyWordSearch } from "../../../data/queries/recall/lexical";
import type { Tx } from "../../../data/pools";
import { anyWordTermsOf } from "../any-word-terms";
import { usesWebsearchOperators } from "../query-words";
import { ANY_WORD_SCAN_LIMIT } from "../strategies/lexical";
import type { RecallSearch } from "../strategy";

/**
 * Measured on the public sets' development splits, choosing on the even questions
 * (docs/benchmarks.md, "Pseudo-relevance feedback in AUTO"): the first pass's 8 best memories, 15
 * terms, the best at 0.3 of a query word. 3–8 memories, 5–15 terms and 0.3–0.5 all score within
 * 0.02 of each other on every set; none is fitted to one set.
 */
export const FEEDBACK_MEMORIES = 8;
export const FEEDBACK_TERMS = 15;
export const FEEDBACK_WEIGHT = 0.3;

/**
 * The second pass's rows, best first (as many as the first pass asked for), or null when feedback
 * does not apply: no first-pass match, or quotes, `or` and `-word`, which ask for exact wording.
 */
export async function lexicalWithFeedback(
  tx: Tx,
  search: RecallSearch,
  first: RecallRow[],
): Promise<RecallRow[] | null> {
  if (first.length === 0 || usesWebsearchOperators(search.query)) return null;
  const { words, weights } = anyWordTermsOf(search.query, { related: false });
  if (words.length === 0) return null;
  const feedback = {
    contents: first.slice(0, FEEDBACK_MEMORIES).map((row) => row.content),
    terms: FEEDBACK_TERMS,
    weight: FEEDBACK_WEIGHT,
  };
  const ranked = await cancellable(
    anyWordSearch(tx, {
      filter: search.filter,
      words,
      weights,
      scanLimit: ANY_WORD_SCAN_LIMIT,
      limit: search.topK,
      excludeIds: [],
      feedback,
    }),
    search.signal,
  );
  return ranked.map(({ raw: _raw, ...row }) => row);
}
