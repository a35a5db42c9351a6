// AUTO's LEXICAL and its feedback pass (feedback.ts) in one statement, when LEXICAL would answer
// from BM25 alone: the same two lists as running LEXICAL and then lexicalWithFeedback, for one
// statement, one savepoint and one reading of the query's postings instead of two
// (recall-lexical-feedback.ts).
import { cancellable, type RecallRow } from "../../../data/queries/recall/common";
import { anyWordSearchWithFeedback } from "../../../data/queries/recall/lexical-feedback";
import type { Tx } from "../../../data/pools";
import { anyWordTermsOf } from "../any-word-terms";
import { isShortQuery, usesWebsearchOperators } from "../query-words";
import { ANY_WORD_SCAN_LIMIT } from "../strategies/lexical";
import type { RecallSearch } from "../strategy";
import { FEEDBACK_MEMORIES, FEEDBACK_TERMS, FEEDBACK_WEIGHT } from "./feedback";

/** LEXICAL's rows, and the feedback pass's (null when it does not apply, as lexicalWithFeedback). */
export type LexicalPasses = { first: RecallRow[]; fed: RecallRow[] | null };

/**
 * Both passes, or null when LEXICAL takes another path (websearch operators, no word to search, or
 * a short query with fewer than topK matches, which LEXICAL tops up by trigram similarity): the
 * caller then runs LEXICAL and the feedback pass one after the other.
 */
export async function lexicalPasses(tx: Tx, search: RecallSearch): Promise<LexicalPasses | null> {
  if (usesWebsearchOperators(search.query)) return null;
  const { words, weights } = anyWordTermsOf(search.query, { related: false });
  if (words.length === 0) return null;
  const rows = await cancellable(
    anyWordSearchWithFeedback(
      tx,
      {
        filter: search.filter,
        words,
        weights,
        scanLimit: ANY_WORD_SCAN_LIMIT,
        limit: search.topK,
      },
      { memories: FEEDBACK_MEMORIES, terms: FEEDBACK_TERMS, weight: FEEDBACK_WEIGHT },
    ),
    search.signal,
  );
  const plain = (pass: 1 | 2) =>
    rows.filter((r) => r.pass === pass).map(({ raw: _raw, pass: _pass, ...row }) => row);
  const first = plain(1);
  if (first.length < search.topK && isShortQuery(search.query)) return null;
  return { first, fed: first.length === 0 ? null : plain(2) };
}
