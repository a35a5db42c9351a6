// A checked Cypher query as one SELECT over the graph tables: the MATCH FROM list and conditions,
// RETURN items as jsonb columns c0…cn (grouped by the non-aggregated ones after DISTINCT or count),
// ORDER BY, SKIP, and a LIMIT clamped to the row cap. Two extra columns list the memos and edges
// the returned values came from, so recall can return the memories that ground them.
import type { CheckedCypher } from "./check";
import { hasAggregate, isReturnedColumn, sameExpr } from "./check";
import type { Expr, ReturnItem } from "./ast";
import type { Tx } from "../../../pools";
import { compileExpr, conditionOf, toJson, type Value } from "./expressions";
import { and, joinFrags, newCtx, type CompileOptions, type Ctx, type Frag } from "./fragments";
import { compileMatches } from "./patterns";

export type CompiledCypher = { sql: Frag; columns: string[]; fetchLimit: number };

/**
 * Variables an expression reads outside any aggregation (the entities a returned value came from).
 */
function groundingVariables(expr: Expr, into: Set<string>): void {
  switch (expr.kind) {
    case "variable":
      into.add(expr.name);
      return;
    case "has-labels":
      into.add(expr.variable.name);
      return;
    case "call":
      if (expr.name !== "count") for (const a of expr.args) groundingVariables(a, into);
      return;
    case "property":
      groundingVariables(expr.target, into);
      return;
    case "list":
      for (const i of expr.items) groundingVariables(i, into);
      return;
    case "not":
    case "is-null":
      groundingVariables(expr.operand, into);
      return;
    case "logic":
    case "compare":
    case "string-match":
    case "in":
      groundingVariables(expr.left, into);
      groundingVariables(expr.right, into);
      return;
    default:
      return;
  }
}

function groundingColumns(ctx: Ctx, items: ReturnItem[], grouped: boolean): Frag {
  const { tx } = ctx;
  const names = new Set<string>();
  for (const item of items) groundingVariables(item.expr, names);
  const memos: Frag[] = [];
  const edges: Frag[] = [];
  for (const name of names) {
    const b = ctx.bindings.get(name);
    if (!b) continue;
    if (b.kind === "node") memos.push(tx`ARRAY[${b.alias}.memo_id]`);
    if (b.kind === "rel") edges.push(tx`ARRAY[${b.alias}.edge_id]`);
    if (b.kind === "walk") {
      memos.push(tx`${b.alias}.nodes`);
      edges.push(tx`${b.alias}.trail`);
    }
    if (b.kind === "path") {
      memos.push(b.memoIds);
      edges.push(b.edgeIds);
    }
  }
  const column = (arrays: Frag[]) => {
    if (arrays.length === 0) return tx`''::text`;
    const text = tx`array_to_string(${joinFrags(tx, arrays, "||")}, ' ')`;
    return grouped ? tx`coalesce(string_agg(${text}, ' '), '')` : text;
  };
  return tx`${column(memos)} AS ground_memos, ${column(edges)} AS ground_edges`;
}

const columnAlias = (ctx: Ctx, i: number): Frag => ctx.tx`${ctx.tx(`c${i}`)}`;

function orderTerm(
  ctx: Ctx,
  checked: CheckedCypher,
  items: ReturnItem[],
  values: Value[],
  expr: Expr,
): Frag {
  const { tx } = ctx;
  const index = items.findIndex(
    (item) => (expr.kind === "variable" && item.column === expr.name) || sameExpr(item.expr, expr),
  );
  if (checked.grouped) return columnAlias(ctx, index);
  const value = index >= 0 ? values[index]! : compileExpr(ctx, expr);
  return value.t === "text" || value.t === "num" || value.t === "time" || value.t === "bool"
    ? value.sql
    : toJson(ctx, value);
}

export function compileCypher(
  tx: Tx,
  checked: CheckedCypher,
  options: CompileOptions,
): CompiledCypher {
  const ctx = newCtx(tx, options);
  const { query } = checked;
  const match = compileMatches(ctx, checked);
  for (const m of query.matches) if (m.where) match.where.push(conditionOf(ctx, m.where));
  const starItems: ReturnItem[] = query.star
    ? [...checked.variables.keys()].map((name) => ({
        expr: { kind: "variable", name, pos: query.matches[0]!.pos },
        alias: null,
        column: name,
        pos: query.matches[0]!.pos,
      }))
    : [];
  const items = [...starItems, ...query.items];
  const values = items.map((item) => compileExpr(ctx, item.expr));
  const select = joinFrags(
    tx,
    values.map((v, i) => tx`${toJson(ctx, v)} AS ${columnAlias(ctx, i)}`),
    ",",
  );
  const grouping = items.flatMap((item, i) =>
    hasAggregate(item.expr) ? [] : [columnAlias(ctx, i)],
  );
  const groupBy =
    checked.grouped && grouping.length > 0 ? tx`GROUP BY ${joinFrags(tx, grouping, ",")}` : tx``;
  const sorts = query.orderBy.map((s) => {
    if (checked.grouped && !isReturnedColumn(s.expr, query, new Set(items.map((i) => i.column))))
      throw new Error("checkCypher lets only returned columns into a grouped ORDER BY");
    const term = orderTerm(ctx, checked, items, values, s.expr);
    return s.descending ? tx`${term} DESC` : tx`${term} ASC`;
  });
  const orderBy = sorts.length > 0 ? tx`ORDER BY ${joinFrags(tx, sorts, ",")}` : tx``;
  const fetchLimit =
    checked.limit !== null && checked.limit <= options.maxRows
      ? checked.limit
      : options.maxRows + 1;
  const sql = tx`SELECT ${select}, ${groundingColumns(ctx, items, checked.grouped)}
    FROM ${joinFrags(tx, match.from, "CROSS JOIN")}
    WHERE ${and(tx, match.where)}
    ${groupBy} ${orderBy}
    LIMIT ${fetchLimit}::bigint OFFSET ${checked.skip}::bigint`;
  return { sql, columns: items.map((i) => i.column), fetchLimit };
}
