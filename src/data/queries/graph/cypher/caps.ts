// AST size caps: a query that passes them compiles to a bounded amount of SQL (joins, walks,
// expressions), whatever its text. Exceeding one is a CypherError at the first construct over the
// cap.
import type { CypherQuery, Expr } from "./ast";
import { CypherError, type SourcePos } from "./errors";

export const AST_CAPS = {
  /** Comma-separated patterns over all MATCH clauses. */
  patterns: 8,
  /** Relationship patterns over all MATCH clauses (each is a join or a bounded walk). */
  relationships: 16,
  /** Expression nodes over the whole query (list items count one each). */
  expressionNodes: 256,
  returnItems: 64,
} as const;

function over(what: string, cap: number, pos: SourcePos): never {
  throw new CypherError(`the query has more than ${cap} ${what} (limit ${cap})`, "", pos);
}

export function countExpressionNodes(expr: Expr): number {
  switch (expr.kind) {
    case "literal":
    case "param":
    case "variable":
    case "has-labels":
      return 1;
    case "property":
      return 1 + countExpressionNodes(expr.target);
    case "list":
      return 1 + expr.items.reduce((n, e) => n + countExpressionNodes(e), 0);
    case "call":
      return 1 + expr.args.reduce((n, e) => n + countExpressionNodes(e), 0);
    case "not":
      return 1 + countExpressionNodes(expr.operand);
    case "is-null":
      return 1 + countExpressionNodes(expr.operand);
    case "logic":
    case "compare":
    case "string-match":
    case "in":
      return 1 + countExpressionNodes(expr.left) + countExpressionNodes(expr.right);
  }
}

export function checkAstCaps(query: CypherQuery): void {
  const patterns = query.matches.flatMap((m) => m.patterns);
  if (patterns.length > AST_CAPS.patterns)
    over("patterns", AST_CAPS.patterns, patterns[AST_CAPS.patterns]!.pos);
  const rels = patterns.flatMap((p) => p.steps.map((s) => s.rel));
  if (rels.length > AST_CAPS.relationships)
    over("relationship patterns", AST_CAPS.relationships, rels[AST_CAPS.relationships]!.pos);
  if (query.items.length > AST_CAPS.returnItems)
    over("RETURN items", AST_CAPS.returnItems, query.items[AST_CAPS.returnItems]!.pos);
  const expressions: Expr[] = [
    ...query.matches.flatMap((m) => (m.where ? [m.where] : [])),
    ...patterns
      .flatMap((p) => [p.start, ...p.steps.flatMap((s) => [s.rel, s.node])])
      .flatMap((e) => e.properties?.entries.map((x) => x.value) ?? []),
    ...query.items.map((i) => i.expr),
    ...query.orderBy.map((s) => s.expr),
    ...(query.skip ? [query.skip] : []),
    ...(query.limit ? [query.limit] : []),
  ];
  let total = 0;
  for (const expr of expressions) {
    total += countExpressionNodes(expr);
    if (total > AST_CAPS.expressionNodes)
      over("expression nodes", AST_CAPS.expressionNodes, expr.pos);
  }
}
