// Cypher expressions as SQL. A value is typed: a SQL scalar (text, num, time, bool), jsonb, a
// constant known at compile time (literals and $parameters, bound as parameters), or an entity
// (node, relationship, walk, path). Typed columns compare natively so indexes apply; everything
// else meets in jsonb with Cypher's rule that ordering values of different types gives null.
import type { CompareOp, Expr } from "./ast";
import { CypherError } from "./errors";
import {
  and,
  EDGE_COLUMNS,
  edgeJson,
  edgeProperties,
  edgesJson,
  NODE_COLUMNS,
  nodeJson,
  nodeProperties,
  nodesJson,
  upperNames,
  type Binding,
  type Ctx,
  type Frag,
  joinFrags,
} from "./fragments";

export type Scalar = "text" | "num" | "time" | "bool" | "json";
export type Value =
  | { t: Scalar; sql: Frag }
  | { t: "const"; value: unknown }
  | { t: "entity"; binding: Binding };

const typeError = (message: string, expr: Expr): never => {
  throw new CypherError(message, "", expr.pos);
};

export function toJson(ctx: Ctx, v: Value): Frag {
  const { tx } = ctx;
  if (v.t === "const")
    return v.value === null || v.value === undefined
      ? tx`NULL::jsonb`
      : tx`${tx.json(v.value as never)}::jsonb`;
  if (v.t === "json") return v.sql;
  if (v.t !== "entity") return tx`to_jsonb(${v.sql})`;
  const b = v.binding;
  switch (b.kind) {
    case "node":
      return nodeJson(tx, b.alias);
    case "rel":
      return edgeJson(tx, b.alias);
    case "walk":
      return edgesJson(ctx, tx`${b.alias}.trail`, b.reversed);
    case "path":
      return tx`jsonb_build_object('nodes', ${nodesJson(ctx, b.memoIds)}, 'relationships', ${edgesJson(ctx, b.edgeIds)}, 'length', ${b.hops})`;
  }
}

export function toBool(ctx: Ctx, v: Value, expr: Expr): Frag {
  const { tx } = ctx;
  if (v.t === "bool") return v.sql;
  if (v.t === "json")
    return tx`(CASE WHEN jsonb_typeof(${v.sql}) = 'boolean' THEN (${v.sql})::boolean END)`;
  if (v.t === "const" && (typeof v.value === "boolean" || v.value === null))
    return tx`${v.value}::boolean`;
  return typeError("expected a boolean expression here", expr);
}

/** A text value (for string predicates and toLower): non-strings become null, as in Cypher. */
function toText(ctx: Ctx, v: Value): Frag {
  const { tx } = ctx;
  if (v.t === "text") return v.sql;
  if (v.t === "const") return typeof v.value === "string" ? tx`${v.value}::text` : tx`NULL::text`;
  const json = toJson(ctx, v);
  return tx`(CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${json} #>> '{}' END)`;
}

/** A constant as a typed SQL parameter when its JS type matches the column kind, else null. */
function constAs(ctx: Ctx, kind: Scalar, value: unknown): Frag | null {
  const { tx } = ctx;
  if (kind === "text" && typeof value === "string") return tx`${value}::text`;
  if (kind === "num" && typeof value === "number") return tx`${value}::float8`;
  if (kind === "bool" && typeof value === "boolean") return tx`${value}::boolean`;
  if (kind === "time" && typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1)
      return tx`${date}::timestamptz`;
  }
  return null;
}

function opSql(ctx: Ctx, op: CompareOp, a: Frag, b: Frag): Frag {
  const { tx } = ctx;
  switch (op) {
    case "=":
      return tx`(${a} = ${b})`;
    case "<>":
      return tx`(${a} <> ${b})`;
    case "<":
      return tx`(${a} < ${b})`;
    case "<=":
      return tx`(${a} <= ${b})`;
    case ">":
      return tx`(${a} > ${b})`;
    case ">=":
      return tx`(${a} >= ${b})`;
  }
}

function entityId(ctx: Ctx, v: Value): Frag | null {
  if (v.t !== "entity") return null;
  if (v.binding.kind === "node") return ctx.tx`${v.binding.alias}.memo_id`;
  if (v.binding.kind === "rel") return ctx.tx`${v.binding.alias}.edge_id`;
  return null;
}

export function compare(ctx: Ctx, op: CompareOp, a: Value, b: Value): Frag {
  const { tx } = ctx;
  const ids = [entityId(ctx, a), entityId(ctx, b)];
  if (
    ids[0] &&
    ids[1] &&
    a.t === "entity" &&
    b.t === "entity" &&
    a.binding.kind === b.binding.kind &&
    (op === "=" || op === "<>")
  )
    return opSql(ctx, op, ids[0], ids[1]);
  if (a.t !== "const" && a.t !== "entity" && a.t !== "json" && b.t === a.t)
    return opSql(ctx, op, a.sql, b.sql);
  if (a.t !== "const" && a.t !== "entity" && a.t !== "json" && b.t === "const") {
    const typed = constAs(ctx, a.t, b.value);
    if (typed) return opSql(ctx, op, a.sql, typed);
  }
  if (b.t !== "const" && b.t !== "entity" && b.t !== "json" && a.t === "const") {
    const typed = constAs(ctx, b.t, a.value);
    if (typed) return opSql(ctx, op, typed, b.sql);
  }
  const [x, y] = [toJson(ctx, a), toJson(ctx, b)];
  if (op === "=" || op === "<>") return opSql(ctx, op, x, y);
  return tx`(CASE WHEN jsonb_typeof(${x}) = jsonb_typeof(${y}) AND jsonb_typeof(${x}) IN ('number', 'string', 'boolean') THEN ${opSql(ctx, op, x, y)} END)`;
}

function inList(ctx: Ctx, left: Value, right: Value, expr: Expr): Frag {
  const { tx } = ctx;
  if (right.t === "const") {
    if (right.value === null) return tx`NULL::boolean`;
    if (!Array.isArray(right.value)) return typeError("IN needs a list on its right", expr);
    const items = right.value as unknown[];
    const id = entityId(ctx, left);
    if (id && items.every((i) => typeof i === "string"))
      return tx`(${id} = ANY(${items as string[]}::text[]))`;
    if (left.t === "text" && items.every((i) => typeof i === "string"))
      return tx`(${left.sql} = ANY(${items as string[]}::text[]))`;
    if (left.t === "num" && items.every((i) => typeof i === "number"))
      return tx`(${left.sql} = ANY(${items as number[]}::float8[]))`;
  }
  const list = toJson(ctx, right);
  return tx`(CASE WHEN jsonb_typeof(${list}) = 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${list}) AS el(v) WHERE el.v = ${toJson(ctx, left)}) END)`;
}

export function propertyOf(ctx: Ctx, target: Value, key: string): Value {
  const { tx } = ctx;
  if (target.t === "const") {
    const v = target.value;
    return {
      t: "const",
      value:
        v !== null && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, key)
          ? (v as Record<string, unknown>)[key]
          : null,
    };
  }
  if (target.t === "entity" && (target.binding.kind === "node" || target.binding.kind === "rel")) {
    const columns = target.binding.kind === "node" ? NODE_COLUMNS : EDGE_COLUMNS;
    const alias = target.binding.alias;
    const kind = Object.hasOwn(columns, key) ? columns[key]! : null;
    if (kind === "json") return { t: "json", sql: tx`to_jsonb(${alias}.${tx(key)})` };
    if (kind) return { t: kind, sql: tx`${alias}.${tx(key)}` };
    return { t: "json", sql: tx`nullif(${alias}.properties -> ${key}::text, 'null'::jsonb)` };
  }
  return { t: "json", sql: tx`nullif(${toJson(ctx, target)} -> ${key}::text, 'null'::jsonb)` };
}

export function compileExpr(ctx: Ctx, expr: Expr): Value {
  const { tx } = ctx;
  switch (expr.kind) {
    case "literal":
      return { t: "const", value: expr.value };
    case "param":
      return { t: "const", value: ctx.params[expr.name] ?? null };
    case "variable":
      return { t: "entity", binding: ctx.bindings.get(expr.name)! };
    case "property":
      return propertyOf(ctx, compileExpr(ctx, expr.target), expr.key);
    case "list": {
      const items = expr.items.map((i) => compileExpr(ctx, i));
      if (items.every((i) => i.t === "const"))
        return { t: "const", value: items.map((i) => (i as { value: unknown }).value) };
      return {
        t: "json",
        sql:
          items.length === 0
            ? tx`'[]'::jsonb`
            : tx`jsonb_build_array(${joinFrags(
                tx,
                items.map((i) => toJson(ctx, i)),
                ",",
              )})`,
      };
    }
    case "not":
      return {
        t: "bool",
        sql: tx`(NOT ${toBool(ctx, compileExpr(ctx, expr.operand), expr.operand)})`,
      };
    case "logic": {
      const [l, r] = [
        toBool(ctx, compileExpr(ctx, expr.left), expr.left),
        toBool(ctx, compileExpr(ctx, expr.right), expr.right),
      ];
      return {
        t: "bool",
        sql:
          expr.op === "and"
            ? tx`(${l} AND ${r})`
            : expr.op === "or"
              ? tx`(${l} OR ${r})`
              : tx`(${l} <> ${r})`,
      };
    }
    case "compare":
      return {
        t: "bool",
        sql: compare(ctx, expr.op, compileExpr(ctx, expr.left), compileExpr(ctx, expr.right)),
      };
    case "in":
      return {
        t: "bool",
        sql: inList(ctx, compileExpr(ctx, expr.left), compileExpr(ctx, expr.right), expr),
      };
    case "string-match": {
      const [l, r] = [
        toText(ctx, compileExpr(ctx, expr.left)),
        toText(ctx, compileExpr(ctx, expr.right)),
      ];
      const sql =
        expr.op === "starts"
          ? tx`starts_with(${l}, ${r})`
          : expr.op === "ends"
            ? tx`(right(${l}, char_length(${r})) = ${r})`
            : tx`(strpos(${l}, ${r}) > 0)`;
      return { t: "bool", sql };
    }
    case "is-null": {
      const v = compileExpr(ctx, expr.operand);
      if (v.t === "entity") return { t: "bool", sql: expr.negated ? tx`true` : tx`false` };
      const sql =
        v.t === "const"
          ? tx`${v.value === null || v.value === undefined}::boolean`
          : v.t === "json"
            ? tx`(${v.sql} IS NULL)`
            : tx`(${v.sql} IS NULL)`;
      return { t: "bool", sql: expr.negated ? tx`(NOT ${sql})` : sql };
    }
    case "has-labels": {
      const b = ctx.bindings.get(expr.variable.name)!;
      return {
        t: "bool",
        sql: tx`(${(b as { alias: Frag }).alias}.memo_type = ANY(${upperNames(expr.labels)}::text[]))`,
      };
    }
    case "call":
      return compileCall(ctx, expr);
  }
}

function compileCall(ctx: Ctx, expr: Extract<Expr, { kind: "call" }>): Value {
  const { tx } = ctx;
  if (expr.star) return { t: "num", sql: tx`count(*)` };
  const args = expr.args.map((a) => compileExpr(ctx, a));
  const arg = args[0]!;
  const binding = arg.t === "entity" ? arg.binding : null;
  const alias = binding && "alias" in binding ? binding.alias : null;
  switch (expr.name) {
    case "id":
    case "elementId":
      return { t: "text", sql: entityId(ctx, arg)! };
    case "type":
      return { t: "text", sql: tx`${alias}.relation` };
    case "labels":
      return { t: "json", sql: tx`jsonb_build_array(${alias}.memo_type)` };
    case "properties":
      return {
        t: "json",
        sql: binding?.kind === "node" ? nodeProperties(tx, alias!) : edgeProperties(tx, alias!),
      };
    case "nodes":
      return {
        t: "json",
        sql: nodesJson(ctx, (binding as Extract<Binding, { kind: "path" }>).memoIds),
      };
    case "relationships":
      return {
        t: "json",
        sql:
          binding?.kind === "walk"
            ? edgesJson(ctx, tx`${alias}.trail`, binding.reversed)
            : edgesJson(ctx, (binding as Extract<Binding, { kind: "path" }>).edgeIds),
      };
    case "length":
      return {
        t: "num",
        sql:
          binding?.kind === "walk"
            ? tx`cardinality(${alias}.trail)`
            : (binding as Extract<Binding, { kind: "path" }>).hops,
      };
    case "size": {
      if (binding?.kind === "walk") return { t: "num", sql: tx`cardinality(${alias}.trail)` };
      if (arg.t === "const")
        return {
          t: "const",
          value:
            typeof arg.value === "string" || Array.isArray(arg.value) ? arg.value.length : null,
        };
      if (arg.t === "text") return { t: "num", sql: tx`char_length(${arg.sql})` };
      if (arg.t !== "json") return typeError("size() takes a string or a list", expr);
      return {
        t: "num",
        sql: tx`(CASE jsonb_typeof(${arg.sql}) WHEN 'string' THEN char_length(${arg.sql} #>> '{}') WHEN 'array' THEN jsonb_array_length(${arg.sql}) END)`,
      };
    }
    case "count": {
      const target = entityId(ctx, arg) ?? toJson(ctx, arg);
      return {
        t: "num",
        sql: expr.distinct ? tx`count(DISTINCT ${target})` : tx`count(${target})`,
      };
    }
    case "coalesce": {
      const first = args[0]!.t;
      if (first !== "const" && first !== "entity" && args.every((a) => a.t === first))
        return {
          t: first,
          sql: tx`coalesce(${joinFrags(
            tx,
            args.map((a) => (a as { sql: Frag }).sql),
            ",",
          )})`,
        };
      return {
        t: "json",
        sql: tx`coalesce(${joinFrags(
          tx,
          args.map((a) => toJson(ctx, a)),
          ",",
        )})`,
      };
    }
    case "toLower":
    case "toUpper": {
      if (arg.t === "const")
        return {
          t: "const",
          value:
            typeof arg.value === "string"
              ? expr.name === "toLower"
                ? arg.value.toLowerCase()
                : arg.value.toUpperCase()
              : null,
        };
      if (arg.t !== "text" && arg.t !== "json")
        return typeError(`${expr.name}() takes a string`, expr);
      const text = toText(ctx, arg);
      return { t: "text", sql: expr.name === "toLower" ? tx`lower(${text})` : tx`upper(${text})` };
    }
  }
}

export const conditionOf = (ctx: Ctx, expr: Expr): Frag =>
  toBool(ctx, compileExpr(ctx, expr), expr);

export const allOf = (ctx: Ctx, parts: Frag[]): Frag => and(ctx.tx, parts);
