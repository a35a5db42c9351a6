// Path enumeration over an agent's graph for GRAPH and TRACE: one recursive CTE, breadth-first, both
// edge directions, bounded three ways — hop cap, per-node fan-out (LATERAL … ORDER BY weight DESC
// LIMIT k) and a global row cap (PostgreSQL evaluates the recursion lazily, so the LIMIT stops it) —
// under the recall transaction's statement timeout. A path never revisits a memo.
import type { Tx } from "../pools";
import { visibleEdge, type EdgeTimeView } from "./graph-read";

export type PathRow = { memo_ids: string[]; edge_ids: string[]; hops: number; score: number };

export type PathSearch = {
  orgId: string;
  agentId: string;
  seeds: Array<{ memo_id: string; score: number }>;
  view: EdgeTimeView;
  maxHops: number;
  fanout: number;
  maxRows: number;
  /** Multiplies a path's score for every hop after the first. */
  hopDecay: number;
  /** TRACE: only paths ending here (and the walk does not continue past it). */
  target: string | null;
  limit: number;
};

export function findPaths(tx: Tx, s: PathSearch) {
  return tx<PathRow[]>`
    WITH RECURSIVE walk (node, memo_ids, edge_ids, hops, score) AS (
      SELECT seed.id, ARRAY[seed.id], ARRAY[]::text[], 0, seed.score
      FROM unnest(${s.seeds.map((x) => x.memo_id)}::text[], ${s.seeds.map((x) => x.score)}::float8[]) AS seed(id, score)
      UNION ALL
      SELECT step.next, w.memo_ids || step.next, w.edge_ids || step.edge_id, w.hops + 1,
             w.score * step.weight * (CASE WHEN w.hops = 0 THEN 1 ELSE ${s.hopDecay}::float8 END)
      FROM walk w
      CROSS JOIN LATERAL (
        (SELECT e.edge_id, e.dst_memo_id AS next, e.weight::float8 AS weight FROM edges e
          WHERE e.org_id = ${s.orgId} AND e.src_memo_id = w.node AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
          ORDER BY e.weight DESC, e.edge_id LIMIT ${s.fanout})
        UNION ALL
        (SELECT e.edge_id, e.src_memo_id AS next, e.weight::float8 FROM edges e
          WHERE e.org_id = ${s.orgId} AND e.dst_memo_id = w.node AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
          ORDER BY e.weight DESC, e.edge_id LIMIT ${s.fanout})
      ) AS step
      WHERE w.hops < ${s.maxHops} AND NOT (step.next = ANY(w.memo_ids))
        ${s.target ? tx`AND w.node <> ${s.target}` : tx``}
    ), capped AS (SELECT * FROM walk LIMIT ${s.maxRows})
    SELECT memo_ids, edge_ids, hops, score FROM capped
    WHERE hops > 0 ${s.target ? tx`AND node = ${s.target}` : tx``}
    ORDER BY ${s.target ? tx`hops, score DESC` : tx`score DESC, hops`}, edge_ids
    LIMIT ${s.limit}`;
}
