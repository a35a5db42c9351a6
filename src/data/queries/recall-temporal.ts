// TEMPORAL recall: every candidate whose event time (occurred_at) falls inside a time window, ranked by
// relevance to the remaining words, latest event first on ties; and the anchor lookup behind
// "before/after <event>".
import type { Tx } from "../pools";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type WindowSearch = {
  filter: RecallFilterInput;
  /** Sanitised OR-query of the remaining words ("deploy | database"), or null to rank by time only. */
  terms: string | null;
  excludeIds: string[];
  limit: number;
};

export function windowSearch(tx: Tx, s: WindowSearch) {
  return tx<RecallRow[]>`
    WITH q AS (SELECT CASE WHEN ${s.terms}::text IS NULL THEN NULL ELSE to_tsquery('english', ${s.terms}::text) END AS query)
    SELECT ${recallColumns(tx)},
      (CASE WHEN q.query IS NULL THEN 0
            ELSE ts_rank_cd(search_document, q.query, 32) END)::real AS score
    FROM memories, q
    WHERE ${candidateFilter(tx, s.filter)} AND NOT (memory_id = ANY(${s.excludeIds}::text[]))
    ORDER BY score DESC, occurred_at DESC, memory_id
    LIMIT ${s.limit}`;
}

const ANCHOR_CANDIDATES = 10;

export type AnchorRow = { memory_id: string; content: string; occurred_at: Date };

/** The agent's memory that best names an event ("the launch"), to date "before/after" windows. */
export function findAnchor(tx: Tx, filter: RecallFilterInput, eventWords: string) {
  return tx<AnchorRow[]>`
    WITH q AS (SELECT websearch_to_tsquery('english', ${eventWords}) AS query)
    SELECT memory_id, content, occurred_at FROM memories, q
    WHERE ${candidateFilter(tx, filter)} AND search_document @@ q.query
    ORDER BY ts_rank_cd(search_document, q.query, 32) DESC, occurred_at DESC
    LIMIT ${ANCHOR_CANDIDATES}`;
}
