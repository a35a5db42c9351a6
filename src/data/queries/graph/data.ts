// GET /v1/graph/data reads: an agent's most mentioned memos, the visible edges among a set of
// memos, and live memos by id.
import type { Tx } from "../../pools";
import { edgeColumns, visibleEdge, type EdgeRow, type EdgeTimeView } from "./read";

export type NodeRow = {
  memo_id: string;
  memo_type: string;
  name: string;
  aliases: string[];
  description: string | null;
  ontology_uri: string | null;
  origin: string;
  mention_count: number;
  created_at: Date;
  updated_at: Date;
};

const nodeColumns = (tx: Tx) =>
  tx`memo_id, memo_type, name, aliases, description, ontology_uri, origin, mention_count, created_at, updated_at`;

export function topMemos(
  tx: Tx,
  orgId: string,
  agentId: string,
  memoType: string | null,
  limit: number,
): Promise<NodeRow[]> {
  return tx<NodeRow[]>`
    SELECT ${nodeColumns(tx)} FROM memos
    WHERE org_id = ${orgId} AND agent_id = ${agentId} AND retired_at IS NULL ${memoType ? tx`AND memo_type = ${memoType}` : tx``}
    ORDER BY mention_count DESC, memo_id LIMIT ${limit}`;
}

export function liveMemosById(
  tx: Tx,
  orgId: string,
  agentId: string,
  memoIds: string[],
  memoType: string | null,
): Promise<NodeRow[]> {
  if (memoIds.length === 0) return Promise.resolve([]);
  return tx<NodeRow[]>`
    SELECT ${nodeColumns(tx)} FROM memos
    WHERE org_id = ${orgId} AND memo_id = ANY(${memoIds}::text[]) AND agent_id = ${agentId} AND retired_at IS NULL
      ${memoType ? tx`AND memo_type = ${memoType}` : tx``}`;
}

/** Visible edges with both ends in `memoIds`, heaviest first. */
export function edgesAmong(
  tx: Tx,
  orgId: string,
  memoIds: string[],
  view: EdgeTimeView,
  limit: number,
): Promise<EdgeRow[]> {
  if (memoIds.length === 0) return Promise.resolve([]);
  return tx<EdgeRow[]>`
    SELECT ${edgeColumns(tx)} FROM edges e
    WHERE e.org_id = ${orgId} AND e.src_memo_id = ANY(${memoIds}::text[]) AND e.dst_memo_id = ANY(${memoIds}::text[]) AND ${visibleEdge(tx, view)}
    ORDER BY e.weight DESC, e.edge_id LIMIT ${limit}`;
}
