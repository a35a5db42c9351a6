// GRAPH's path walk: the breadth-first walk of graph-traverse.ts (both edge directions, free steps
// to namesake memos, per-node fan-out, hop cap, no revisits) pruned to a beam. Each step keeps only
// the `beam` best partial paths, ranked as GRAPH ranks answers: how many of the question's words
// the path's facts hold, then strength. Through a 5,000-edge hub the unpruned walk stopped at its
// row cap after hundreds of node expansions; this one expands at most `beam` nodes per step,
// whatever the graph.
import type { Tx } from "../../pools";
import { visibleEdge, type EdgeTimeView } from "./read";

/** A path, the question's words its facts hold (english lexemes), and the question's word count. */
export type BeamPathRow = {
  memo_ids: string[];
  edge_ids: string[];
  hops: number;
  score: number;
  held: string[];
  question_words: number;
};

export type BeamSearch = {
  orgId: string;
  agentId: string;
  /** The question: its english lexemes are matched against each fact's search_document. */
  question: string;
  seeds: Array<{ memo_id: string; score: number }>;
  view: EdgeTimeView;
  maxHops: number;
  fanout: number;
  /** Partial paths kept after each step. */
  beam: number;
  /** Multiplies a path's score for every hop after the first. */
  hopDecay: number;
  limit: number;
};

export function findBeamPaths(tx: Tx, s: BeamSearch) {
  const edgeStep = (from: "src_memo_id" | "dst_memo_id", to: "src_memo_id" | "dst_memo_id") => tx`
    SELECT e.edge_id, e.${tx.unsafe(to)} AS next, e.weight::float8 AS weight,
      e.search_document AS document
    FROM edges e
    WHERE e.org_id = ${s.orgId} AND e.${tx.unsafe(from)} = w.node AND e.agent_id = ${s.agentId}
      AND ${visibleEdge(tx, s.view)}
    ORDER BY e.weight DESC, e.edge_id LIMIT ${s.fanout}`;
  return tx<BeamPathRow[]>`
    WITH RECURSIVE q AS MATERIALIZED (
      SELECT tsvector_to_array(to_tsvector('english', ${s.question})) AS words
    ), walk (node, memo_ids, edge_ids, visited, hops, score, jumped, held) AS (
      SELECT seed.id, ARRAY[seed.id], ARRAY[]::text[], ARRAY[seed.id], 0, seed.score, false,
        ARRAY[]::text[]
      FROM unnest(${s.seeds.map((x) => x.memo_id)}::text[],
        ${s.seeds.map((x) => x.score)}::float8[]) AS seed(id, score)
      UNION ALL
      SELECT node, memo_ids, edge_ids, visited, hops, score, jumped, held FROM (
        SELECT grown.*, row_number() OVER (ORDER BY cardinality(grown.held) DESC,
          grown.score DESC, grown.edge_ids, grown.memo_ids) AS place
        FROM (
          SELECT step.next AS node,
            CASE WHEN step.edge_id IS NULL THEN w.memo_ids
              ELSE w.memo_ids || step.next END AS memo_ids,
            CASE WHEN step.edge_id IS NULL THEN w.edge_ids
              ELSE w.edge_ids || step.edge_id END AS edge_ids,
            w.visited || step.next AS visited,
            w.hops + (step.edge_id IS NOT NULL)::int AS hops,
            w.score * step.weight * (CASE WHEN w.hops = 0 OR step.edge_id IS NULL THEN 1
              ELSE ${s.hopDecay}::float8 END) AS score,
            step.edge_id IS NULL AS jumped,
            w.held || ARRAY(SELECT l FROM unnest(tsvector_to_array(step.document)) AS l
              WHERE l = ANY(q.words) AND l <> ALL(w.held)) AS held
          FROM walk w
          CROSS JOIN q
          CROSS JOIN LATERAL (
            (${edgeStep("src_memo_id", "dst_memo_id")})
            UNION ALL
            (${edgeStep("dst_memo_id", "src_memo_id")})
            UNION ALL
            (SELECT NULL::text, namesake.memo_id, 1::float8, NULL::tsvector FROM memos here
              JOIN memos namesake ON namesake.org_id = here.org_id
                AND namesake.agent_id = here.agent_id
                AND namesake.normalized_name = here.normalized_name
                AND namesake.retired_at IS NULL
              WHERE here.org_id = ${s.orgId} AND here.memo_id = w.node
                AND namesake.memo_id <> here.memo_id AND NOT w.jumped
              ORDER BY namesake.memo_id LIMIT ${s.fanout})
          ) AS step
          WHERE w.hops < ${s.maxHops} AND NOT (step.next = ANY(w.visited))
        ) AS grown
      ) AS ranked
      WHERE place <= ${s.beam}
    )
    SELECT memo_ids, edge_ids, hops, score, held, cardinality(q.words) AS question_words
    FROM walk, q
    WHERE hops > 0 AND NOT jumped
    ORDER BY cardinality(held) DESC, score DESC, hops, edge_ids
    LIMIT ${s.limit}`;
}
