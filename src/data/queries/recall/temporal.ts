// TEMPORAL recall: the memories whose event time (occurred_at) falls inside a time window, ranked
// by the remaining words, then the window's latest events; and the anchor lookup behind
// "before/after <event>". Every step is a btree range: the window from memories_agent_occurred
// (sql/0441), the words from LEXICAL's postings (memory_terms, which hold every lexeme of
// search_document: sql/0570), so an open window ("since 1979", "before the trip") costs what a
// narrow one does instead of ranking every memory of the agent (1.1 s at 419 memories, 503s under
// load).
import type { Tx } from "../../pools";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./common";

/**
 * How many of the window's latest memories are ranked by the words: the ranking's bound on an open
 * window.
 */
export const WINDOW_SCAN_LIMIT = 5_000;

export type WindowSearch = {
  filter: RecallFilterInput;
  /** Single words with their weights (any-word-terms.ts): the user's at 1, related words less. */
  words: string[];
  weights: number[];
  excludeIds: string[];
  limit: number;
};

/**
 * The window's memories holding some of the words, best first: each matched lexeme adds weight ×
 * idf (BM25's, counted over the window's latest WINDOW_SCAN_LIMIT memories, the ones ranked), a
 * lexeme shared by several words once at its highest weight. Scores map to [0, 0.5), below nothing:
 * TEMPORAL's own scale.
 */
export function windowWordSearch(tx: Tx, s: WindowSearch) {
  const { orgId, agentId } = s.filter;
  return tx<RecallRow[]>`
    WITH terms AS MATERIALIZED (
      SELECT t.lexeme, max(w.weight) AS weight
      FROM unnest(${s.words}::text[], ${s.weights}::real[]) AS w(word, weight),
           LATERAL unnest(to_tsvector('english', w.word)) AS t
      GROUP BY t.lexeme
    ), inside AS MATERIALIZED (
      SELECT memory_id FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND NOT (memory_id = ANY(${s.excludeIds}::text[]))
      ORDER BY occurred_at DESC
      LIMIT ${WINDOW_SCAN_LIMIT}
    ), total AS MATERIALIZED (
      SELECT count(*) AS n FROM inside
    ), posted AS MATERIALIZED (
      SELECT p.memory_id, p.lexeme FROM terms, LATERAL (
        SELECT memory_id, term AS lexeme FROM memory_terms
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = terms.lexeme
      ) AS p
      WHERE p.memory_id IN (SELECT memory_id FROM inside)
    ), idf AS (
      SELECT lexeme, ln(1 + ((SELECT n FROM total) - count(*) + 0.5) / (count(*) + 0.5)) AS idf FROM posted GROUP BY lexeme
    ), scored AS (
      SELECT posted.memory_id, sum(terms.weight * idf.idf) AS raw
      FROM posted JOIN idf USING (lexeme) JOIN terms USING (lexeme)
      GROUP BY posted.memory_id
      ORDER BY raw DESC, posted.memory_id
      LIMIT ${s.limit}
    )
    SELECT m.*, (0.5 * scored.raw / (scored.raw + 1))::real AS score
    FROM scored, LATERAL (
      SELECT ${recallColumns(tx)} FROM memories WHERE org_id = ${orgId} AND memory_id = scored.memory_id AND valid_to IS NULL
    ) AS m
    ORDER BY scored.raw DESC, m.occurred_at DESC, m.memory_id`;
}

/** The window's latest events, score 0: what fills the answer when few memories hold the words. */
export function latestInWindow(
  tx: Tx,
  s: { filter: RecallFilterInput; excludeIds: string[]; limit: number },
) {
  return tx<RecallRow[]>`
    SELECT ${recallColumns(tx)}, 0::real AS score FROM memories
    WHERE ${candidateFilter(tx, s.filter)} AND NOT (memory_id = ANY(${s.excludeIds}::text[]))
    ORDER BY occurred_at DESC, memory_id
    LIMIT ${s.limit}`;
}

const ANCHOR_CANDIDATES = 10;
/** Memories holding the event's rarest word read to match the whole event: its best postings. */
const ANCHOR_SCAN = 500;

export type AnchorRow = { memory_id: string; content: string; occurred_at: Date };

/**
 * The agent's memories that best name an event ("the launch"), to date "before/after" windows:
 * those holding every word of it (the rarest word's ANCHOR_SCAN best postings), by ts_rank_cd.
 */
export function findAnchor(tx: Tx, filter: RecallFilterInput, eventWords: string) {
  const { orgId, agentId } = filter;
  return tx<AnchorRow[]>`
    WITH q AS MATERIALIZED (
      SELECT websearch_to_tsquery('english', ${eventWords}) AS query, tsvector_to_array(to_tsvector('english', ${eventWords})) AS lexemes
    ), rarest AS MATERIALIZED (
      SELECT l.lexeme FROM q, unnest(q.lexemes) AS l(lexeme)
      ORDER BY (SELECT coalesce(max(docs), 0) FROM memory_term_stats st
                WHERE st.org_id = ${orgId} AND st.agent_id = ${agentId}
                  AND st.term = l.lexeme), l.lexeme
      LIMIT 1
    ), holders AS MATERIALIZED (
      SELECT p.memory_id FROM rarest, LATERAL (
        SELECT memory_id FROM memory_terms
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = rarest.lexeme
        ORDER BY impact DESC LIMIT ${ANCHOR_SCAN}
      ) AS p
    )
    SELECT m.memory_id, m.content, m.occurred_at FROM holders, q, LATERAL (
      SELECT memory_id, content, occurred_at, search_document FROM memories
      WHERE ${candidateFilter(tx, filter)} AND memory_id = holders.memory_id
      LIMIT 1
    ) AS m
    WHERE m.search_document @@ q.query
    ORDER BY ts_rank_cd(m.search_document, q.query, 32) DESC, m.occurred_at DESC
    LIMIT ${ANCHOR_CANDIDATES}`;
}
