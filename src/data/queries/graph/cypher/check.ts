// Semantic checks before compilation: every variable is bound once with one kind, functions get the
// kinds they accept, aggregates stay in RETURN / ORDER BY, $parameters exist, hop bounds fit the
// cap, SKIP / LIMIT are non-negative integers. After this the compiler cannot meet an invalid
// query.
import type { CypherQuery, Expr, Name, RelPattern } from "./ast";
import { CypherError, type SourcePos } from "./errors";

export type VariableKind = "node" | "rel" | "walk" | "path";

export type CheckedCypher = {
  query: CypherQuery;
  /** Named variables in the order they were introduced. */
  variables: Map<string, VariableKind>;
  /** RETURN DISTINCT or an aggregate: rows are groups, and ORDER BY sees only returned columns. */
  grouped: boolean;
  skip: number;
  limit: number | null;
  maxHops: number;
};

export type CypherLimits = { maxHops: number };

const fail = (message: string, token: string, pos: SourcePos): never => {
  throw new CypherError(message, token, pos);
};

/** The hop range of a relationship pattern: null for a single fixed hop. */
export function hopRange(rel: RelPattern, maxHops: number): { min: number; max: number } | null {
  if (!rel.length) return null;
  return { min: rel.length.min ?? 1, max: rel.length.max ?? maxHops };
}

export function checkCypher(
  query: CypherQuery,
  params: Record<string, unknown>,
  limits: CypherLimits,
): CheckedCypher {
  const variables = new Map<string, VariableKind>();
  const bind = (name: Name, kind: VariableKind) => {
    const existing = variables.get(name.name);
    if (existing === undefined) {
      variables.set(name.name, kind);
      return;
    }
    if (existing === "node" && kind === "node") return;
    fail(
      existing === kind
        ? `variable ${name.name} is already bound (a ${kind} variable can be bound only once)`
        : `variable ${name.name} is already bound as a ${existing}`,
      name.name,
      name.pos,
    );
  };
  // Clause by clause, as Cypher scopes them: a WHERE sees the variables of its MATCH and earlier
  // ones.
  const scope = { variables, params };
  for (const clause of query.matches) {
    for (const pattern of clause.patterns) {
      if (pattern.start.variable) bind(pattern.start.variable, "node");
      for (const { rel, node } of pattern.steps) {
        checkHops(rel, limits.maxHops);
        if (rel.variable) bind(rel.variable, rel.length ? "walk" : "rel");
        if (node.variable) bind(node.variable, "node");
      }
      if (pattern.pathVariable) bind(pattern.pathVariable, "path");
      for (const element of [pattern.start, ...pattern.steps.flatMap((s) => [s.rel, s.node])]) {
        for (const { value } of element.properties?.entries ?? []) {
          if (!isConstant(value))
            fail(
              "property maps in patterns take literals and $parameters; compare with variables in WHERE",
              "",
              value.pos,
            );
          checkExpr(value, scope, "pattern");
        }
      }
    }
    if (clause.where) checkExpr(clause.where, scope, "WHERE");
  }
  if (query.star && variables.size === 0)
    fail("RETURN * needs at least one named variable", "*", query.matches[0]!.pos);
  const columns = new Set<string>(query.star ? variables.keys() : []);
  let aggregated = false;
  for (const item of query.items) {
    checkExpr(item.expr, scope, "RETURN");
    if (hasAggregate(item.expr)) {
      aggregated = true;
      const outside = variableOutsideAggregate(item.expr);
      if (outside)
        fail(
          `${outside.name} is used outside the aggregation in the same RETURN item; return it as its own column`,
          outside.name,
          outside.pos,
        );
    }
    if (columns.has(item.column))
      fail(
        `two RETURN columns are named ${item.column}; give one an alias with AS`,
        item.column,
        item.pos,
      );
    columns.add(item.column);
  }
  const grouped = query.distinct || aggregated;
  for (const sort of query.orderBy) {
    const aliasOnly =
      sort.expr.kind === "variable" &&
      !variables.has(sort.expr.name) &&
      columns.has(sort.expr.name);
    if (!aliasOnly) checkExpr(sort.expr, scope, "ORDER BY");
    if ((grouped || hasAggregate(sort.expr)) && !isReturnedColumn(sort.expr, query, columns))
      fail(
        "after RETURN DISTINCT or an aggregation, ORDER BY can only use returned columns (by alias or the same expression)",
        "",
        sort.expr.pos,
      );
  }
  return {
    query,
    variables,
    grouped,
    skip: query.skip ? count(query.skip, params, "SKIP") : 0,
    limit: query.limit ? count(query.limit, params, "LIMIT") : null,
    maxHops: limits.maxHops,
  };
}

function checkHops(rel: RelPattern, maxHops: number): void {
  if (!rel.length) return;
  const { min, max } = hopRange(rel, maxHops)!;
  const pos = rel.length.pos;
  if (max > maxHops)
    fail(
      `a variable-length relationship may span at most ${maxHops} hops (CYPHER_MAX_HOPS)`,
      String(max),
      pos,
    );
  if (min > max) fail(`the hop range ${min}..${max} is empty`, `${min}..${max}`, pos);
}

/** Source text of an expression that matches a RETURN item, so ORDER BY may name it. */
export function isReturnedColumn(expr: Expr, query: CypherQuery, columns: Set<string>): boolean {
  if (expr.kind === "variable" && columns.has(expr.name)) return true;
  return query.items.some((item) => sameExpr(item.expr, expr));
}

export function sameExpr(a: Expr, b: Expr): boolean {
  return (
    JSON.stringify(a, (k, v) => (k === "pos" ? undefined : v)) ===
    JSON.stringify(b, (k, v) => (k === "pos" ? undefined : v))
  );
}

const isConstant = (e: Expr): boolean =>
  e.kind === "literal" || e.kind === "param" || (e.kind === "list" && e.items.every(isConstant));

export function hasAggregate(expr: Expr): boolean {
  switch (expr.kind) {
    case "call":
      return expr.name === "count" || expr.args.some(hasAggregate);
    case "property":
      return hasAggregate(expr.target);
    case "list":
      return expr.items.some(hasAggregate);
    case "not":
    case "is-null":
      return hasAggregate(expr.operand);
    case "logic":
    case "compare":
    case "string-match":
    case "in":
      return hasAggregate(expr.left) || hasAggregate(expr.right);
    default:
      return false;
  }
}

function variableOutsideAggregate(expr: Expr): { name: string; pos: SourcePos } | null {
  switch (expr.kind) {
    case "variable":
      return expr;
    case "has-labels":
      return expr.variable;
    case "call":
      return expr.name === "count" ? null : firstOf(expr.args.map(variableOutsideAggregate));
    case "property":
      return variableOutsideAggregate(expr.target);
    case "list":
      return firstOf(expr.items.map(variableOutsideAggregate));
    case "not":
    case "is-null":
      return variableOutsideAggregate(expr.operand);
    case "logic":
    case "compare":
    case "string-match":
    case "in":
      return variableOutsideAggregate(expr.left) ?? variableOutsideAggregate(expr.right);
    default:
      return null;
  }
}

const firstOf = <T>(values: Array<T | null>): T | null => values.find((v) => v !== null) ?? null;

function count(expr: Expr, params: Record<string, unknown>, clause: string): number {
  const value =
    expr.kind === "literal" ? expr.value : expr.kind === "param" ? params[expr.name] : undefined;
  if (expr.kind === "param" && !Object.hasOwn(params, expr.name))
    fail(`parameter $${expr.name} is not given in params`, `$${expr.name}`, expr.pos);
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    fail(`${clause} takes a non-negative integer literal or $parameter`, "", expr.pos);
  return value as number;
}

type Scope = { variables: Map<string, VariableKind>; params: Record<string, unknown> };

const ENTITY_FUNCTIONS: Partial<Record<string, VariableKind[]>> = {
  id: ["node", "rel"],
  elementId: ["node", "rel"],
  properties: ["node", "rel"],
  type: ["rel"],
  labels: ["node"],
  nodes: ["path"],
  relationships: ["path"],
  length: ["path"],
};
const ARITY: Record<string, [number, number]> = { coalesce: [1, 32], count: [1, 1] };

/** The kind of a bare variable expression, or null for anything that is not an entity variable. */
const entityKind = (e: Expr, scope: Scope): VariableKind | null =>
  e.kind === "variable" ? (scope.variables.get(e.name) ?? null) : null;

function checkExpr(
  expr: Expr,
  scope: Scope,
  clause: "pattern" | "WHERE" | "RETURN" | "ORDER BY",
  insideAggregate = false,
): void {
  const recurse = (e: Expr, inAgg = insideAggregate) => checkExpr(e, scope, clause, inAgg);
  switch (expr.kind) {
    case "literal":
      return;
    case "param":
      if (!Object.hasOwn(scope.params, expr.name))
        fail(`parameter $${expr.name} is not given in params`, `$${expr.name}`, expr.pos);
      return;
    case "variable":
      if (!scope.variables.has(expr.name))
        fail(`variable ${expr.name} is not defined`, expr.name, expr.pos);
      return;
    case "has-labels":
      if (scope.variables.get(expr.variable.name) !== "node")
        fail(`${expr.variable.name} is not a node variable`, expr.variable.name, expr.variable.pos);
      return;
    case "property": {
      recurse(expr.target);
      const kind = entityKind(expr.target, scope);
      if (kind === "walk" || kind === "path")
        fail(
          `${(expr.target as { name: string }).name} is a list of relationships or a path and has no properties`,
          expr.key,
          expr.pos,
        );
      return;
    }
    case "call": {
      if (expr.name === "count") {
        if (clause !== "RETURN" && clause !== "ORDER BY")
          fail(
            `count() is allowed in RETURN and ORDER BY only, not in ${clause}`,
            "count",
            expr.pos,
          );
        if (insideAggregate) fail("aggregations cannot be nested", "count", expr.pos);
      }
      const [min, max] = ARITY[expr.name] ?? [1, 1];
      if (!expr.star && (expr.args.length < min || expr.args.length > max))
        fail(
          `${expr.name}() takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}`,
          expr.name,
          expr.pos,
        );
      for (const arg of expr.args) recurse(arg, insideAggregate || expr.name === "count");
      const accepts = ENTITY_FUNCTIONS[expr.name];
      if (accepts) {
        const kind = entityKind(expr.args[0]!, scope);
        if (!kind || !accepts.includes(kind))
          fail(
            `${expr.name}() takes a ${accepts.map((k) => (k === "walk" ? "variable-length relationship" : k === "rel" ? "relationship" : k)).join(" or ")} variable`,
            expr.name,
            expr.pos,
          );
      }
      return;
    }
    case "list":
      for (const item of expr.items) recurse(item);
      return;
    case "not":
    case "is-null":
      recurse(expr.operand);
      return;
    case "logic":
    case "compare":
    case "string-match":
    case "in":
      recurse(expr.left);
      recurse(expr.right);
      return;
  }
}
