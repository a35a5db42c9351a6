// A fast-check generator of queries in the CYPHER subset, as the AST it means and the text that
// says it: the reference grammar the parser is tested against. Queries are semantically valid
// (variables bound before use, kinds respected, aggregates only in RETURN) and full of hostile
// names and values (SQL fragments, other tables' names, quotes, comments, prototype keys) for the
// isolation tests.
import fc from "fast-check";
import type {
  CypherQuery,
  Expr,
  MatchClause,
  Name,
  NodePattern,
  Pattern,
  PropertyMap,
  RelPattern,
  ReturnItem,
} from "../../../src/data/queries/graph/cypher/ast";

export type Generated = { text: string; params: Record<string, unknown>; query: CypherQuery };

const NOWHERE = { offset: 0, line: 0, column: 0 };
const name = (value: string): Name => ({ name: value, pos: NOWHERE });

export const HOSTILE_STRINGS = [
  "Alice",
  "Bob",
  "' OR '1'='1",
  '"; DROP TABLE memos; --',
  "$1",
  "\\",
  "%_",
  "ünï",
  "🙂",
  "--",
  "/* x */",
  "Tenant-B-secret",
  "org_",
  "",
];
const LABELS = [
  "PERSON",
  "Person",
  "ORG",
  "TOOL",
  "PLACE",
  "memories",
  "api_keys",
  "x'); DROP TABLE memos; --",
  "pg_catalog.pg_user",
  "Tenant B",
];
const TYPES = [
  "REPORTS_TO",
  "USES",
  "LIVES_IN",
  "works_at",
  "edges",
  "audit_log",
  "x'); DELETE FROM edges; --",
];
const KEYS = [
  "name",
  "level",
  "team",
  "weight",
  "fact",
  "memo_type",
  "org_id",
  "agent_id",
  "properties",
  "__proto__",
  "constructor",
  "x'); DELETE FROM memories; --",
  "weird key",
];
const NODE_VARS = ["a", "b", "c", "n", "the node"];
const PARAMS = ["p0", "p1", "p2", "name"];
const ALIASES = ["x1", "x2", "x3", "total", "label"];

const KEYWORDS = new Set([
  "MATCH",
  "WHERE",
  "RETURN",
  "DISTINCT",
  "AS",
  "ORDER",
  "BY",
  "ASC",
  "DESC",
  "SKIP",
  "LIMIT",
  "AND",
  "OR",
  "XOR",
  "NOT",
  "IN",
  "STARTS",
  "ENDS",
  "WITH",
  "CONTAINS",
  "IS",
  "NULL",
  "TRUE",
  "FALSE",
  "COUNT",
]);
export const ident = (s: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !KEYWORDS.has(s.toUpperCase()) ? s : `\`${s}\``;
const str = (s: string) =>
  `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;

const literalArb: fc.Arbitrary<string | number | boolean | null> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.integer({ min: -1000, max: 1000 }),
  fc
    .double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true })
    .filter((d) => !Object.is(d, -0)),
  fc.boolean(),
  fc.constant(null),
);
const paramValueArb: fc.Arbitrary<unknown> = fc.oneof(
  literalArb,
  fc.array(fc.constantFrom(...HOSTILE_STRINGS), { maxLength: 4 }),
  fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
  fc.record({ name: fc.constantFrom(...HOSTILE_STRINGS) }),
);

type Scope = { nodes: string[]; rels: string[]; walks: string[]; paths: string[] };

const lit = (value: string | number | boolean | null): Expr => ({
  kind: "literal",
  value,
  pos: NOWHERE,
});
const variable = (n: string): Expr => ({ kind: "variable", name: n, pos: NOWHERE });
const prop = (target: string, key: string): Expr => ({
  kind: "property",
  target: variable(target),
  key,
  pos: NOWHERE,
});
const call = (
  fn: Extract<Expr, { kind: "call" }>["name"],
  args: Expr[],
  distinct = false,
  star = false,
): Expr => ({ kind: "call", name: fn, args, distinct, star, pos: NOWHERE });

const constantArb: fc.Arbitrary<Expr> = fc.oneof(
  literalArb.map(lit),
  fc.constantFrom(...PARAMS).map((p): Expr => ({ kind: "param", name: p, pos: NOWHERE })),
);
const stringArb: fc.Arbitrary<Expr> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS).map(lit),
  fc.constantFrom(...PARAMS).map((p): Expr => ({ kind: "param", name: p, pos: NOWHERE })),
);

function propertyArb(scope: Scope): fc.Arbitrary<Expr> {
  const targets = [...scope.nodes, ...scope.rels];
  return targets.length === 0
    ? stringArb
    : fc.tuple(fc.constantFrom(...targets), fc.constantFrom(...KEYS)).map(([t, k]) => prop(t, k));
}

/** Scalar values: constants, properties, and functions whose argument types Neo4j accepts. */
function valueArb(scope: Scope): fc.Arbitrary<Expr> {
  const options: Array<fc.Arbitrary<Expr>> = [
    constantArb,
    propertyArb(scope),
    propertyArb(scope).map((p) => call("toLower", [p])),
    fc.tuple(propertyArb(scope), constantArb).map(([p, c]) => call("coalesce", [p, c])),
    propertyArb(scope).map((p) => call("size", [p])),
  ];
  if (scope.nodes.length + scope.rels.length > 0)
    options.push(
      fc.constantFrom(...scope.nodes, ...scope.rels).map((v) => call("id", [variable(v)])),
    );
  if (scope.rels.length > 0)
    options.push(fc.constantFrom(...scope.rels).map((v) => call("type", [variable(v)])));
  if (scope.paths.length > 0)
    options.push(fc.constantFrom(...scope.paths).map((v) => call("length", [variable(v)])));
  if (scope.walks.length > 0)
    options.push(fc.constantFrom(...scope.walks).map((v) => call("size", [variable(v)])));
  return fc.oneof(...options);
}

function boolArb(scope: Scope, depth: number): fc.Arbitrary<Expr> {
  const value = valueArb(scope);
  const leaves: Array<fc.Arbitrary<Expr>> = [
    fc
      .tuple(value, fc.constantFrom("=", "<>", "<", "<=", ">", ">=" as const), value)
      .map(([l, op, r]): Expr => ({ kind: "compare", op, left: l, right: r, pos: NOWHERE })),
    fc
      .tuple(propertyArb(scope), fc.constantFrom("starts", "ends", "contains" as const), stringArb)
      .map(([l, op, r]): Expr => ({ kind: "string-match", op, left: l, right: r, pos: NOWHERE })),
    fc
      .tuple(
        value,
        fc.oneof(
          fc
            .array(constantArb, { maxLength: 3 })
            .map((items): Expr => ({ kind: "list", items, pos: NOWHERE })),
          constantArb.filter((c) => c.kind === "param"),
        ),
      )
      .map(([l, r]): Expr => ({ kind: "in", left: l, right: r, pos: NOWHERE })),
    fc
      .tuple(value, fc.boolean())
      .map(([operand, negated]): Expr => ({ kind: "is-null", operand, negated, pos: NOWHERE })),
    fc.boolean().map(lit),
  ];
  if (scope.nodes.length > 0)
    leaves.push(
      fc
        .tuple(
          fc.constantFrom(...scope.nodes),
          fc.uniqueArray(fc.constantFrom(...LABELS), { minLength: 1, maxLength: 2 }),
        )
        .map(
          ([v, ls]): Expr => ({
            kind: "has-labels",
            variable: name(v),
            labels: ls.map(name),
            pos: NOWHERE,
          }),
        ),
    );
  if (depth <= 0) return fc.oneof(...leaves);
  const inner = boolArb(scope, depth - 1);
  return fc.oneof(
    { arbitrary: fc.oneof(...leaves), weight: 3 },
    {
      arbitrary: inner.map((operand): Expr => ({ kind: "not", operand, pos: NOWHERE })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(inner, fc.constantFrom("and", "or", "xor" as const), inner)
        .map(([l, op, r]): Expr => ({ kind: "logic", op, left: l, right: r, pos: NOWHERE })),
      weight: 2,
    },
  );
}

const propertyMapArb = (maxEntries: number): fc.Arbitrary<PropertyMap | null> =>
  fc.option(
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), constantArb), {
        minLength: 1,
        maxLength: maxEntries,
        selector: ([k]) => k,
      })
      .map((entries) => ({
        entries: entries.map(([k, v]) => ({ key: name(k), value: v })),
        pos: NOWHERE,
      })),
    { freq: 3 },
  );

const nodeArb: fc.Arbitrary<NodePattern> = fc.record({
  variable: fc.option(fc.constantFrom(...NODE_VARS).map(name), { freq: 4 }),
  labels: fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 2 }).map((ls) => ls.map(name)),
  properties: propertyMapArb(2),
  pos: fc.constant(NOWHERE),
});

const lengthArb = fc.option(
  fc
    .oneof(
      fc.constant({ min: null, max: null }),
      fc.integer({ min: 1, max: 3 }).map((n) => ({ min: n, max: n })),
      fc
        .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }))
        .map(([m, extra]) => ({ min: m, max: m + extra })),
      fc.integer({ min: 1, max: 3 }).map((n) => ({ min: null, max: n })),
    )
    .map((l) => ({ ...l, pos: NOWHERE })),
  { freq: 3 },
);

const relArb = (index: number): fc.Arbitrary<RelPattern> =>
  fc.record({
    variable: fc.option(fc.constant(name(`r${index}`)), { freq: 2 }),
    types: fc.uniqueArray(fc.constantFrom(...TYPES), { maxLength: 2 }).map((ts) => ts.map(name)),
    direction: fc.constantFrom("out", "in", "both" as const),
    length: lengthArb,
    properties: propertyMapArb(1),
    pos: fc.constant(NOWHERE),
  });

function patternArb(index: number): fc.Arbitrary<Pattern> {
  return fc.integer({ min: 0, max: 3 }).chain((steps) =>
    fc.record({
      pathVariable: fc.option(fc.constant(name(`p${index}`)), { freq: 5 }),
      start: nodeArb,
      steps: fc.tuple(
        ...Array.from({ length: steps }, (_, i) =>
          fc.record({ rel: relArb(index * 10 + i), node: nodeArb }),
        ),
      ),
      pos: fc.constant(NOWHERE),
    }),
  );
}

function scopeOf(matches: Array<{ patterns: Pattern[] }>): Scope {
  const scope: Scope = { nodes: [], rels: [], walks: [], paths: [] };
  const add = (list: string[], v: string) => {
    if (!list.includes(v)) list.push(v);
  };
  for (const p of matches.flatMap((m) => m.patterns)) {
    if (p.start.variable) add(scope.nodes, p.start.variable.name);
    for (const s of p.steps) {
      if (s.rel.variable) add(s.rel.length ? scope.walks : scope.rels, s.rel.variable.name);
      if (s.node.variable) add(scope.nodes, s.node.variable.name);
    }
    if (p.pathVariable) add(scope.paths, p.pathVariable.name);
  }
  return scope;
}

function returnItemsArb(scope: Scope): fc.Arbitrary<Expr[]> {
  const all = [...scope.nodes, ...scope.rels, ...scope.walks, ...scope.paths];
  const plain: Array<fc.Arbitrary<Expr>> = [valueArb(scope)];
  if (all.length > 0) plain.push(fc.constantFrom(...all).map(variable));
  if (scope.nodes.length > 0)
    plain.push(fc.constantFrom(...scope.nodes).map((v) => call("labels", [variable(v)])));
  if (scope.paths.length > 0)
    plain.push(
      fc
        .tuple(
          fc.constantFrom(...scope.paths),
          fc.constantFrom("nodes" as const, "relationships" as const),
        )
        .map(([v, fn]) => call(fn, [variable(v)])),
    );
  const aggregate: Array<fc.Arbitrary<Expr>> = [
    fc.constant(call("count", [], false, true)),
    fc.tuple(propertyArb(scope), fc.boolean()).map(([p, d]) => call("count", [p], d)),
  ];
  if (all.length > 0)
    aggregate.push(
      fc
        .tuple(fc.constantFrom(...all), fc.boolean())
        .map(([v, d]) => call("count", [variable(v)], d)),
    );
  return fc.array(
    fc.oneof(
      { arbitrary: fc.oneof(...plain), weight: 4 },
      { arbitrary: fc.oneof(...aggregate), weight: 1 },
    ),
    { minLength: 1, maxLength: 4 },
  );
}

export function cypherQueryArb(): fc.Arbitrary<Generated> {
  const matchesArb = fc
    .integer({ min: 1, max: 2 })
    .chain((clauses) =>
      fc.tuple(
        ...Array.from({ length: clauses }, (_, c) =>
          fc
            .integer({ min: 1, max: 2 })
            .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => patternArb(c * 2 + i)))),
        ),
      ),
    );
  return matchesArb.chain((patternLists) => {
    const whereArbs = patternLists.map((_, i) =>
      fc.option(
        boolArb(scopeOf(patternLists.slice(0, i + 1).map((patterns) => ({ patterns }))), 2),
        { freq: 2 },
      ),
    );
    const scope = scopeOf(patternLists.map((patterns) => ({ patterns })));
    return fc
      .record({
        wheres: fc.tuple(...whereArbs),
        distinct: fc.boolean(),
        star: fc
          .boolean()
          .map(
            (b) =>
              b &&
              scope.nodes.length + scope.rels.length + scope.walks.length + scope.paths.length > 0,
          ),
        items: returnItemsArb(scope),
        aliases: fc.array(fc.option(fc.constantFrom(...ALIASES), { freq: 2 }), {
          minLength: 4,
          maxLength: 4,
        }),
        sorts: fc.array(fc.tuple(fc.nat(), fc.constantFrom("asc", "desc", "none")), {
          maxLength: 2,
        }),
        skip: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 3 }),
        limit: fc.option(
          fc.oneof(
            fc.integer({ min: 0, max: 20 }).map((n) => n as number | "param"),
            fc.constant("param" as const),
          ),
          { freq: 2 },
        ),
        params: fc.tuple(...PARAMS.map(() => paramValueArb)),
        upper: fc.boolean(),
        separators: fc.array(fc.constantFrom(" ", "\n", "  ", " /* c */ ", "\t", " // c\n"), {
          minLength: 12,
          maxLength: 12,
        }),
      })
      .map((r) => assemble(patternLists, r));
  });
}

type Parts = {
  wheres: Array<Expr | null>;
  distinct: boolean;
  star: boolean;
  items: Expr[];
  aliases: Array<string | null>;
  sorts: Array<[number, string]>;
  skip: number | null;
  limit: number | "param" | null;
  params: unknown[];
  upper: boolean;
  separators: string[];
};

function assemble(patternLists: Pattern[][], r: Parts): Generated {
  const kw = (k: string) => (r.upper ? k : k.toLowerCase());
  let s = 0;
  const sep = () => r.separators[s++ % r.separators.length]!;
  const matches: MatchClause[] = patternLists.map((patterns, i) => ({
    patterns,
    where: r.wheres[i] ?? null,
    pos: NOWHERE,
  }));
  const usedColumns = new Set<string>(r.star ? [...scopeNames(patternLists)] : []);
  const items: ReturnItem[] = r.items.map((expr, i) => {
    const text = printExpr(expr);
    let alias = r.aliases[i] ?? null;
    if (alias && usedColumns.has(alias)) alias = null;
    if (!alias && usedColumns.has(text)) alias = `col${i}`;
    const column = alias ?? text;
    usedColumns.add(column);
    return { expr, alias: alias ? name(alias) : null, column, pos: NOWHERE };
  });
  const orderBy =
    items.length === 0
      ? []
      : r.sorts.map(([n, dir]) => {
          const item = items[n % items.length]!;
          return {
            expr: item.alias ? variable(item.alias.name) : item.expr,
            descending: dir === "desc",
            dir,
          };
        });
  const params: Record<string, unknown> = Object.fromEntries(
    PARAMS.map((p, i) => [p, r.params[i]]),
  );
  params.lim = 7;
  const query: CypherQuery = {
    matches,
    distinct: r.distinct,
    star: r.star,
    items,
    orderBy: orderBy.map(({ expr, descending }) => ({ expr, descending })),
    skip: r.skip === null ? null : lit(r.skip),
    limit:
      r.limit === null
        ? null
        : r.limit === "param"
          ? { kind: "param", name: "lim", pos: NOWHERE }
          : lit(r.limit),
  };
  const text = [
    ...matches.map(
      (m) =>
        `${kw("MATCH")}${sep()}${m.patterns.map(printPattern).join(`,${sep()}`)}${m.where ? `${sep()}${kw("WHERE")} ${printExpr(m.where)}` : ""}`,
    ),
    `${kw("RETURN")}${r.distinct ? ` ${kw("DISTINCT")}` : ""} ${[...(r.star ? ["*"] : []), ...items.map((i) => `${printExpr(i.expr)}${i.alias ? ` ${kw("AS")} ${ident(i.alias.name)}` : ""}`)].join(`,${sep()}`)}`,
    ...(orderBy.length > 0
      ? [
          `${kw("ORDER BY")} ${orderBy.map((o) => `${printExpr(o.expr)}${o.dir === "none" ? "" : ` ${kw(o.dir.toUpperCase())}`}`).join(", ")}`,
        ]
      : []),
    ...(query.skip ? [`${kw("SKIP")} ${printExpr(query.skip)}`] : []),
    ...(query.limit ? [`${kw("LIMIT")} ${printExpr(query.limit)}`] : []),
  ].join(sep());
  return { text, params, query };
}

function scopeNames(patternLists: Pattern[][]): string[] {
  const s = scopeOf(patternLists.map((patterns) => ({ patterns })));
  const seen: string[] = [];
  for (const p of patternLists.flat()) {
    for (const n of [
      p.start.variable?.name,
      ...p.steps.flatMap((st) => [st.rel.variable?.name, st.node.variable?.name]),
      p.pathVariable?.name,
    ]) {
      if (n && !seen.includes(n)) seen.push(n);
    }
  }
  return seen.filter((n) => [...s.nodes, ...s.rels, ...s.walks, ...s.paths].includes(n));
}

export function printExpr(e: Expr): string {
  switch (e.kind) {
    case "literal":
      return e.value === null
        ? "null"
        : typeof e.value === "string"
          ? str(e.value)
          : String(e.value);
    case "param":
      return `$${e.name}`;
    case "variable":
      return ident(e.name);
    case "property":
      return `${printExpr(e.target)}.${ident(e.key)}`;
    case "list":
      return `[${e.items.map(printExpr).join(", ")}]`;
    case "call":
      return e.star
        ? "count(*)"
        : `${e.name}(${e.distinct ? "DISTINCT " : ""}${e.args.map(printExpr).join(", ")})`;
    case "not":
      return `(NOT ${printExpr(e.operand)})`;
    case "logic":
      return `(${printExpr(e.left)} ${e.op.toUpperCase()} ${printExpr(e.right)})`;
    case "compare":
      return `(${printExpr(e.left)} ${e.op} ${printExpr(e.right)})`;
    case "string-match":
      return `(${printExpr(e.left)} ${e.op === "starts" ? "STARTS WITH" : e.op === "ends" ? "ENDS WITH" : "CONTAINS"} ${printExpr(e.right)})`;
    case "in":
      return `(${printExpr(e.left)} IN ${printExpr(e.right)})`;
    case "is-null":
      return `(${printExpr(e.operand)} IS ${e.negated ? "NOT " : ""}NULL)`;
    case "has-labels":
      return `${ident(e.variable.name)}:${e.labels.map((l) => ident(l.name)).join("|")}`;
  }
}

const printProps = (p: PropertyMap | null) =>
  p ? ` {${p.entries.map((e) => `${ident(e.key.name)}: ${printExpr(e.value)}`).join(", ")}}` : "";
const printNode = (n: NodePattern) =>
  `(${n.variable ? ident(n.variable.name) : ""}${n.labels.length ? `:${n.labels.map((l) => ident(l.name)).join("|")}` : ""}${printProps(n.properties)})`;

function printRel(r: RelPattern): string {
  const len = r.length
    ? `*${r.length.min ?? ""}${r.length.min !== null && r.length.min === r.length.max ? "" : `..${r.length.max ?? ""}`}`
    : "";
  const detail = `${r.variable ? ident(r.variable.name) : ""}${r.types.length ? `:${r.types.map((t) => ident(t.name)).join("|")}` : ""}${len}${printProps(r.properties)}`;
  const body = detail === "" ? "--" : `-[${detail}]-`;
  return r.direction === "out" ? `${body}>` : r.direction === "in" ? `<${body}` : body;
}

const printPattern = (p: Pattern) =>
  `${p.pathVariable ? `${ident(p.pathVariable.name)} = ` : ""}${printNode(p.start)}${p.steps.map((s) => `${printRel(s.rel)}${printNode(s.node)}`).join("")}`;

/** The AST without source positions, for comparing a parse with what was generated. */
export const withoutPositions = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (k, v) => (k === "pos" ? undefined : v)));
