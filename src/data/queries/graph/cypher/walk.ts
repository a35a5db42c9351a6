// A variable-length relationship as a bounded walk (design/forge.md §1.6): a recursive CTE from one
// start node, each hop a LATERAL index scan that follows at most `fanout` edges (highest weight
// first), never the same edge twice in a walk (the trail), at most `max` hops and `walkRows` rows.
import type { RelPattern } from "./ast";
import { compare, compileExpr, propertyOf } from "./expressions";
import { and, edgeScope, upperNames, type Ctx, type Frag } from "./fragments";

function stepFilter(ctx: Ctx, rel: RelPattern, e: Frag): Frag {
  const { tx } = ctx;
  const types =
    rel.types.length > 0 ? tx`AND ${e}.relation = ANY(${upperNames(rel.types)}::text[])` : tx``;
  const props = (rel.properties?.entries ?? []).map(({ key, value }) =>
    compare(
      ctx,
      "=",
      propertyOf(ctx, { t: "entity", binding: { kind: "rel", alias: e } }, key.name),
      compileExpr(ctx, value),
    ),
  );
  return tx`${edgeScope(ctx, e)} ${types} AND ${and(tx, props)} AND ${e}.edge_id <> ALL(w.trail)`;
}

/** One hop from w.node: (edge_id, next, weight) of up to `fanout` edges. */
function step(ctx: Ctx, rel: RelPattern): Frag {
  const { tx } = ctx;
  const se = tx`se`;
  const out = tx`SELECT se.edge_id, se.dst_memo_id AS next, se.weight FROM edges se WHERE se.src_memo_id = w.node AND ${stepFilter(ctx, rel, se)}`;
  const back = tx`SELECT se.edge_id, se.src_memo_id AS next, se.weight FROM edges se WHERE se.dst_memo_id = w.node AND ${stepFilter(ctx, rel, se)}`;
  if (rel.direction === "out") return tx`${out} ORDER BY se.weight DESC LIMIT ${ctx.fanout}::int`;
  if (rel.direction === "in") return tx`${back} ORDER BY se.weight DESC LIMIT ${ctx.fanout}::int`;
  return tx`SELECT b.edge_id, b.next, b.weight FROM (${out} UNION ALL ${back} AND se.src_memo_id <> se.dst_memo_id) AS b ORDER BY b.weight DESC LIMIT ${ctx.fanout}::int`;
}

/**
 * Rows (end_id, trail, nodes): every walk of min..max hops from `start`; nodes includes the start.
 */
export function walkItem(
  ctx: Ctx,
  rel: RelPattern,
  start: Frag,
  range: { min: number; max: number },
): Frag {
  const { tx } = ctx;
  return tx`WITH RECURSIVE walk(node, depth, trail, nodes) AS (
      SELECT ${start}.memo_id, 0, ARRAY[]::text[], ARRAY[${start}.memo_id]
      UNION ALL
      SELECT s.next, w.depth + 1, w.trail || s.edge_id, w.nodes || s.next
      FROM walk w CROSS JOIN LATERAL (${step(ctx, rel)}) AS s
      WHERE w.depth < ${range.max}::int
    )
    SELECT node AS end_id, trail, nodes FROM walk WHERE depth >= ${range.min}::int LIMIT ${ctx.walkRows}::int`;
}
