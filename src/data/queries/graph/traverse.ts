// Path enumeration between two memos for TRACE: one recursive CTE, breadth-first, both edge
// directions, bounded three ways — hop cap, per-node fan-out (LATERAL … ORDER BY weight DESC LIMIT
// k) and a global row cap (PostgreSQL evaluates the recursion lazily, so the LIMIT stops it) —
// under the recall transaction's statement timeout. A path never revisits a memo. GRAPH walks the
// same steps pruned to a beam (graph-beam.ts).
//
// Distill keys memos by (type, name), so one thing may be two memos ("Acme Robotics" an ORG where
// Alice works at it, a CONCEPT where it is headquartered somewhere). The walk steps from a memo to
// its namesakes for free (no edge, no hop, btree equality on the name), so such a path is not cut
// in two; memo_ids keeps the memos the edges were walked from, one more than edge_ids.
import type { Tx } from "../../pools";
import { visibleEdge, type EdgeTimeView } from "./read";

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
  /** Only paths ending here (and the walk does not continue past it). */
  target: string;
  limit: number;
};

export function findPaths(tx: Tx, s: PathSearch) {
  return tx<PathRow[]>`
    WITH RECURSIVE walk (node, memo_ids, edge_ids, visited, hops, score, jumped) AS (
      SELECT seed.id, ARRAY[seed.id], ARRAY[]::text[], ARRAY[seed.id], 0, seed.score, false
      FROM unnest(${s.seeds.map((x) => x.memo_id)}::text[], ${s.seeds.map((x) => x.score)}::float8[]) AS seed(id, score)
      UNION ALL
      SELECT step.next,
             CASE WHEN step.edge_id IS NULL THEN w.memo_ids ELSE w.memo_ids || step.next END,
             CASE WHEN step.edge_id IS NULL THEN w.edge_ids ELSE w.edge_ids || step.edge_id END,
             w.visited || step.next, w.hops + (step.edge_id IS NOT NULL)::int,
             w.score * step.weight * (CASE WHEN w.hops = 0 OR step.edge_id IS NULL THEN 1 ELSE ${s.hopDecay}::float8 END),
             step.edge_id IS NULL
      FROM walk w
      CROSS JOIN LATERAL (
        (SELECT e.edge_id, e.dst_memo_id AS next, e.weight::float8 AS weight FROM edges e
          WHERE e.org_id = ${s.orgId} AND e.src_memo_id = w.node AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
          ORDER BY e.weight DESC, e.edge_id LIMIT ${s.fanout})
        UNION ALL
        (SELECT e.edge_id, e.src_memo_id AS next, e.weight::float8 FROM edges e
          WHERE e.org_id = ${s.orgId} AND e.dst_memo_id = w.node AND e.agent_id = ${s.agentId} AND ${visibleEdge(tx, s.view)}
          ORDER BY e.weight DESC, e.edge_id LIMIT ${s.fanout})
        UNION ALL
        (SELECT NULL::text, namesake.memo_id, 1::float8 FROM memos here
          JOIN memos namesake ON namesake.org_id = here.org_id AND namesake.agent_id = here.agent_id
            AND namesake.normalized_name = here.normalized_name AND namesake.retired_at IS NULL
          WHERE here.org_id = ${s.orgId} AND here.memo_id = w.node AND namesake.memo_id <> here.memo_id AND NOT w.jumped
          ORDER BY namesake.memo_id LIMIT ${s.fanout})
      ) AS step
      WHERE w.hops < ${s.maxHops} AND NOT (step.next = ANY(w.visited))
        AND w.node <> ${s.target}
    ), capped AS (SELECT * FROM walk LIMIT ${s.maxRows})
    SELECT memo_ids, edge_ids, hops, score FROM capped
    WHERE hops > 0 AND NOT jumped AND node = ${s.target}
    ORDER BY hops, score DESC, edge_ids
    LIMIT ${s.limit}`;
}
