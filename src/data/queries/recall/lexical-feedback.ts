// AUTO's two BM25 passes in one statement: the first pass (the query's words) and the second, with
// the first's best memories' terms as feedback (recall-feedback.ts), from the same CTEs as
// anyWordSearch. A term's share of a memory's score does not depend on the other terms, and the
// feedback terms leave the query's out, so the second pass's score is the first's plus the feedback
// terms': the query's postings are read and summed once, not twice, and the first pass's best
// memories reach the second without a round trip.
import type { Tx } from "../../pools";
import type { RecallRow } from "./common";
import { type AnyWordSearch, bm25Ctes, bm25Ranked } from "./lexical";
import type { Feedback } from "./feedback";

export type PassRow = RecallRow & { raw: number; pass: 1 | 2 };

/**
 * Both passes' `limit` best, the first's rows first (`pass` 1), each pass best first. `memories`:
 * how many of the first pass's best lend their terms.
 */
export function anyWordSearchWithFeedback(
  tx: Tx,
  s: AnyWordSearch,
  feedback: Omit<Feedback, "contents" | "feedbackOnly"> & { memories: number },
) {
  const excluded: ReturnType<Tx> = tx`false`;
  const best: ReturnType<Tx> = tx`(SELECT coalesce(array_agg(content ORDER BY raw DESC, memory_id), '{}') FROM (
      SELECT content, raw, memory_id FROM first_ranked ORDER BY raw DESC, memory_id
      LIMIT ${feedback.memories}
    ) AS best)`;
  const second = {
    ...s,
    feedback: {
      terms: feedback.terms,
      weight: feedback.weight,
      contents: best,
      feedbackOnly: true,
    },
  };
  return tx<PassRow[]>`
    WITH first_scored AS MATERIALIZED (
      WITH ${bm25Ctes(tx, s)} SELECT memory_id, version, raw FROM scored
    ), first_ranked AS MATERIALIZED (
      WITH scored AS (SELECT * FROM first_scored)
      ${bm25Ranked(tx, s, excluded, tx`${s.limit}`, 1)}
    ), fed_scored AS MATERIALIZED (
      WITH ${bm25Ctes(tx, second)} SELECT memory_id, version, raw FROM scored
    ), scored AS MATERIALIZED (
      SELECT memory_id, version, sum(raw) AS raw
      FROM (SELECT * FROM first_scored UNION ALL SELECT * FROM fed_scored) AS terms
      GROUP BY memory_id, version
    )
    SELECT *, 1 AS pass FROM first_ranked
    UNION ALL
    SELECT *, 2 FROM (${bm25Ranked(tx, s, excluded, tx`${s.limit}`, 1)}) AS fed
    ORDER BY pass, raw DESC, memory_id`;
}
