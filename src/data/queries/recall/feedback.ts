// Pseudo-relevance feedback for BM25 (AUTO's second LEXICAL pass, pipeline/feedback.ts): the terms
// that the first pass's best memories use often and the agent uses rarely join the query's terms.
import type { Tx } from "../../pools";
import type { RecallFilterInput } from "./common";

export type Feedback = {
  /** The first pass's best memories' contents, best first: rank r lends its terms at 1/r. */
  contents: string[];
  /** At most this many terms join the query's. */
  terms: number;
  /** The best feedback term's weight (a query term weighs 1); the others in proportion. */
  weight: number;
};

/**
 * The `terms` of BM25 (recall-lexical.ts): the query's (`typed`), then the feedback terms. A term
 * scores Σ over the feedback memories of tf/length/rank, times its idf in the agent (RM3's term
 * weight with BM25's idf, so a word every memory holds adds nothing). A number, a one-letter term
 * or a term of one memory only (the feedback memory itself) is left out. Reads `totals`.
 */
export function withFeedbackTerms(
  tx: Tx,
  filter: RecallFilterInput,
  typed: ReturnType<Tx>,
  f: Feedback,
) {
  return tx`WITH typed AS MATERIALIZED (${typed}), fed AS MATERIALIZED (
      SELECT t.term, sum(t.tf::float8 / greatest(t.doc_len, 1) / f.rank) AS p
      FROM unnest(${f.contents}::text[]) WITH ORDINALITY AS f(content, rank),
           LATERAL svc_bm25_terms(f.content, NULL) AS t
      WHERE length(t.term) > 1 AND t.term !~ '^[0-9]+$'
        AND NOT EXISTS (SELECT 1 FROM typed WHERE typed.term = t.term)
      GROUP BY t.term
    ), expansion AS MATERIALIZED (
      SELECT fed.term, fed.p * ln(1 + (totals.docs - st.docs + 0.5) / (st.docs + 0.5)) AS v
      FROM fed, totals, LATERAL (
        SELECT docs FROM memory_term_stats
        WHERE org_id = ${filter.orgId} AND agent_id = ${filter.agentId} AND term = fed.term
        LIMIT 1
      ) AS st
      WHERE st.docs >= 2
      ORDER BY v DESC, fed.term
      LIMIT ${f.terms}
    )
    SELECT term, weight FROM typed
    UNION ALL
    SELECT term, (${f.weight} * v / greatest(max(v) OVER (), 1e-12))::real FROM expansion`;
}
