// Shared pieces of every graph read (graph/data and the GRAPH, TRIPLET, TRACE strategies): the edge
// columns, which edges a time view shows, provenance lookups, and the per-node fan-out walk step.
import type { Tx } from "../../pools";

/**
 * What a read sees, in the two timelines. Default: the current graph (edges not expired in system
 * time, whatever their event-time validity). as_of (event time): edges valid at that instant among
 * the current and the superseded ones. include_expired: every edge except those retired because
 * their source was forgotten — those are never shown by any read.
 */
export type EdgeTimeView = { asOf: Date | null; includeExpired: boolean };

export const CURRENT: EdgeTimeView = Object.freeze({ asOf: null, includeExpired: false });

export type EdgeRow = {
  edge_id: string;
  agent_id: string;
  src_memo_id: string;
  dst_memo_id: string;
  relation: string;
  fact: string;
  weight: number;
  confidence: number;
  origin: string;
  mention_count: number;
  valid_at: Date | null;
  invalid_at: Date | null;
  observed_at: Date | null;
  created_at: Date;
  expired_at: Date | null;
  expired_reason: string | null;
  superseded_by: string | null;
};

/** The columns of EdgeRow, from an edges table aliased `e`. */
export const edgeColumns = (
  tx: Tx,
) => tx`e.edge_id, e.agent_id, e.src_memo_id, e.dst_memo_id, e.relation, e.fact, e.weight, e.confidence,
  e.origin, e.mention_count, e.valid_at, e.invalid_at, e.observed_at, e.created_at, e.expired_at, e.expired_reason, e.superseded_by`;

/**
 * The condition on an edges table aliased `e`; the default view keeps `expired_at IS NULL` literal
 * so the partial indexes apply.
 */
export function visibleEdge(tx: Tx, view: EdgeTimeView) {
  const during = view.asOf
    ? tx`AND (e.valid_at IS NULL OR e.valid_at <= ${view.asOf}) AND (e.invalid_at IS NULL OR e.invalid_at > ${view.asOf})`
    : tx``;
  if (view.includeExpired)
    return tx`e.expired_reason IS DISTINCT FROM 'source_forgotten' ${during}`;
  if (view.asOf) return tx`(e.expired_at IS NULL OR e.expired_reason = 'superseded') ${during}`;
  return tx`e.expired_at IS NULL`;
}

export type SourceRow = { owner_id: string; memory_id: string; memory_version: number };

/** The memory versions grounding each edge, oldest first. */
export function edgeSources(tx: Tx, orgId: string, edgeIds: string[]): Promise<SourceRow[]> {
  if (edgeIds.length === 0) return Promise.resolve([]);
  return tx<SourceRow[]>`
    SELECT edge_id AS owner_id, memory_id, memory_version FROM edge_sources
    WHERE org_id = ${orgId} AND edge_id = ANY(${edgeIds}::text[]) ORDER BY edge_id, created_at, memory_id`;
}

/** At most `perMemo` grounding memory versions per memo, newest first. */
export function memoSources(
  tx: Tx,
  orgId: string,
  memoIds: string[],
  perMemo: number,
): Promise<SourceRow[]> {
  if (memoIds.length === 0) return Promise.resolve([]);
  return tx<SourceRow[]>`
    SELECT m.id AS owner_id, s.memory_id, s.memory_version FROM unnest(${memoIds}::text[]) AS m(id)
    CROSS JOIN LATERAL (
      SELECT memory_id, memory_version FROM memo_sources
      WHERE org_id = ${orgId} AND memo_id = m.id ORDER BY created_at DESC, memory_id LIMIT ${perMemo}
    ) AS s`;
}

/**
 * One hop out of `frontier`, both directions: for each node at most `fanout` outgoing and `fanout`
 * incoming visible edges, heaviest first (LATERAL … ORDER BY weight DESC LIMIT), so a hub with
 * thousands of edges costs `2 × fanout` rows, not thousands.
 */
export function edgesAround(
  tx: Tx,
  orgId: string,
  agentId: string,
  frontier: string[],
  view: EdgeTimeView,
  fanout: number,
) {
  return tx<EdgeRow[]>`
    SELECT DISTINCT ON (x.edge_id) x.* FROM unnest(${frontier}::text[]) AS f(id)
    CROSS JOIN LATERAL (
      (SELECT ${edgeColumns(tx)} FROM edges e WHERE e.org_id = ${orgId} AND e.src_memo_id = f.id AND e.agent_id = ${agentId} AND ${visibleEdge(tx, view)}
        ORDER BY e.weight DESC, e.edge_id LIMIT ${fanout})
      UNION ALL
      (SELECT ${edgeColumns(tx)} FROM edges e WHERE e.org_id = ${orgId} AND e.dst_memo_id = f.id AND e.agent_id = ${agentId} AND ${visibleEdge(tx, view)}
        ORDER BY e.weight DESC, e.edge_id LIMIT ${fanout})
    ) AS x
    ORDER BY x.edge_id`;
}
