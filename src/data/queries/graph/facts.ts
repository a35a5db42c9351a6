// Facts for the graph strategies: edges whose text matches the query (TRIPLET, GRAPH seeds), an
// entity's timeline (TRACE), edges and memos by id, and the current memories that ground them.
import type { Tx } from "../../pools";
import { edgeColumns, visibleEdge, type EdgeRow, type EdgeTimeView } from "./read";
import {
  candidateFilter,
  recallColumns,
  type RecallFilterInput,
  type RecallRow,
} from "../recall/common";

const CANDIDATES_PER_RESULT = 10;

/**
 * Visible edges of the agent whose fact holds some of the query's words, from the facts' postings
 * (edge_lexemes, sql/0442: a btree that row-level security can use): each word's newest `scanLimit`
 * postings, each matched word adding ln(1 + scanLimit / its postings), so a rare word outweighs a
 * common one; the best CANDIDATES_PER_RESULT × limit are read, visibility checked on the edge rows,
 * and ts_rank_cd breaks ties (returned as `rank`). `terms` is an OR-query ("deploy | database").
 */
export function edgesMatchingText(
  tx: Tx,
  s: {
    orgId: string;
    agentId: string;
    terms: string;
    view: EdgeTimeView;
    scanLimit: number;
    limit: number;
  },
) {
  return tx<Array<EdgeRow & { rank: number }>>`
    WITH q AS MATERIALIZED (SELECT to_tsquery('english', ${s.terms}) AS query
    ), words AS MATERIALIZED (
      SELECT DISTINCT m[1] AS lexeme FROM q, regexp_matches(q.query::text, '''([^'']+)''', 'g') AS m
    ), posted AS MATERIALIZED (
      SELECT words.lexeme, p.edge_id FROM words, LATERAL (
        SELECT edge_id FROM edge_lexemes
        WHERE org_id = ${s.orgId} AND agent_id = ${s.agentId} AND lexeme = words.lexeme
        ORDER BY edge_id DESC LIMIT ${s.scanLimit}
      ) AS p
    ), idf AS (
      SELECT lexeme, ln(1 + ${s.scanLimit}::float8 / count(*)) AS idf FROM posted GROUP BY lexeme
    ), scored AS (
      SELECT posted.edge_id, sum(idf.idf) AS raw FROM posted JOIN idf USING (lexeme)
      GROUP BY posted.edge_id ORDER BY raw DESC, posted.edge_id DESC LIMIT ${s.limit * CANDIDATES_PER_RESULT}
    )
    SELECT r.edge_id, r.agent_id, r.src_memo_id, r.dst_memo_id, r.relation, r.fact, r.weight, r.confidence, r.origin,
      r.mention_count, r.valid_at, r.invalid_at, r.observed_at, r.created_at, r.expired_at, r.expired_reason, r.superseded_by,
      ts_rank_cd(r.search_document, q.query, 32)::float8 AS rank
    FROM scored, q, LATERAL (
      SELECT ${edgeColumns(tx)}, e.search_document FROM edges e
      WHERE e.org_id = ${s.orgId} AND e.edge_id = scored.edge_id AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
    ) AS r
    ORDER BY scored.raw DESC, rank DESC, r.weight DESC, r.edge_id
    LIMIT ${s.limit}`;
}

/**
 * Every edge of a memo (both directions) the view allows, in event-time order (valid_at, else
 * observed_at, else created_at).
 */
export function timelineOf(
  tx: Tx,
  s: {
    orgId: string;
    agentId: string;
    memoId: string;
    view: EdgeTimeView;
    until: Date | null;
    limit: number;
  },
) {
  return tx<EdgeRow[]>`
    SELECT * FROM (
      SELECT ${edgeColumns(tx)} FROM edges e WHERE e.org_id = ${s.orgId} AND e.src_memo_id = ${s.memoId} AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
      UNION
      SELECT ${edgeColumns(tx)} FROM edges e WHERE e.org_id = ${s.orgId} AND e.dst_memo_id = ${s.memoId} AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
    ) AS t
    ${s.until ? tx`WHERE coalesce(t.valid_at, t.observed_at, t.created_at) <= ${s.until}` : tx``}
    ORDER BY coalesce(t.valid_at, t.observed_at, t.created_at), t.created_at, t.edge_id
    LIMIT ${s.limit}`;
}

export function edgesById(tx: Tx, orgId: string, edgeIds: string[]): Promise<EdgeRow[]> {
  if (edgeIds.length === 0) return Promise.resolve([]);
  return tx<
    EdgeRow[]
  >`SELECT ${edgeColumns(tx)} FROM edges e WHERE e.org_id = ${orgId} AND e.edge_id = ANY(${edgeIds}::text[]) AND e.expired_reason IS DISTINCT FROM 'source_forgotten'`;
}

export function memoNames(
  tx: Tx,
  orgId: string,
  memoIds: string[],
): Promise<Array<{ memo_id: string; name: string; memo_type: string }>> {
  if (memoIds.length === 0) return Promise.resolve([]);
  return tx`SELECT memo_id, name, memo_type FROM memos WHERE org_id = ${orgId} AND memo_id = ANY(${memoIds}::text[])`;
}

/**
 * The current, unexpired versions among `memoryIds` that pass the recall's filters: the only
 * memories a graph answer may cite.
 */
export function groundingMemories(
  tx: Tx,
  filter: RecallFilterInput,
  memoryIds: string[],
): Promise<Array<Omit<RecallRow, "score">>> {
  if (memoryIds.length === 0) return Promise.resolve([]);
  return tx<Array<Omit<RecallRow, "score">>>`
    SELECT ${recallColumns(tx)} FROM memories WHERE ${candidateFilter(tx, filter)} AND memory_id = ANY(${memoryIds}::text[])`;
}

/**
 * How well each of these edges' facts matches the query's words (ts_rank_cd, normalised to [0, 1)).
 */
export function rankEdges(
  tx: Tx,
  orgId: string,
  edgeIds: string[],
  terms: string | null,
): Promise<Array<{ edge_id: string; rank: number }>> {
  if (edgeIds.length === 0 || !terms) return Promise.resolve([]);
  return tx<Array<{ edge_id: string; rank: number }>>`
    SELECT e.edge_id, ts_rank_cd(e.search_document, to_tsquery('english', ${terms}), 32)::float8 AS rank
    FROM edges e WHERE e.org_id = ${orgId} AND e.edge_id = ANY(${edgeIds}::text[])`;
}
