// CODE recall: identifier tokens (svc_code_tokens, sql/0110) over the agent's memories marked as code.
import type { Tx } from "../pools";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type CodeSearch = { filter: RecallFilterInput; text: string; limit: number };

/**
 * The query is tokenised by the same SQL function as the documents. English stopwords ("where",
 * "is") are dropped from the query side. Score = total length of matched query tokens / total length
 * of all query tokens, so whole identifiers and paths (long tokens) weigh more than their parts.
 */
export function codeSearch(tx: Tx, s: CodeSearch) {
  return tx<RecallRow[]>`
    WITH q AS (
      SELECT coalesce(array_agg(tok), '{}') AS tokens, coalesce(sum(length(tok)), 0) AS weight
      FROM unnest(svc_code_tokens(${s.text}, '{}'::jsonb)) AS tok
      WHERE to_tsvector('english', tok) <> ''::tsvector
    )
    SELECT ${recallColumns(tx)},
      ((SELECT coalesce(sum(length(t)), 0) FROM unnest(svc_code_tokens(content, metadata)) AS t WHERE t = ANY(q.tokens))
        / greatest(q.weight, 1))::real AS score
    FROM memories, q
    WHERE ${candidateFilter(tx, s.filter)} AND svc_marks_code(metadata)
      AND svc_code_tokens(content, metadata) && q.tokens
    ORDER BY score DESC, valid_from DESC, memory_id
    LIMIT ${s.limit}`;
}
