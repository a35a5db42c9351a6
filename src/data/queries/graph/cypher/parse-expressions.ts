// Expressions of the subset by precedence climbing: OR < XOR < AND < NOT < comparison (chainable) <
// predicates (IS NULL, IN, STARTS WITH, ENDS WITH, CONTAINS, :Label) < property access < atoms.
import { CYPHER_FUNCTIONS, type CompareOp, type CypherFunction, type Expr, type Name } from "./ast";
import { quote } from "./errors";
import type { TokenStream } from "./token-stream";

const COMPARE_OPS: readonly string[] = ["=", "<>", "<", "<=", ">", ">="];
const FUNCTION_BY_LOWER = new Map<string, CypherFunction>(
  CYPHER_FUNCTIONS.map((f) => [f.toLowerCase(), f]),
);
const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "^"]);

/** Words that begin a construct we refuse inside expressions. */
const REFUSED_IN_EXPRESSIONS: Record<string, string> = {
  CASE: "CASE expressions are outside the supported subset",
  EXISTS: "EXISTS subqueries are outside the supported subset",
  COUNT_SUBQUERY: "COUNT { … } subqueries are outside the supported subset",
  COLLECT: "COLLECT subqueries and collect() are outside the supported subset",
  REDUCE: "reduce() is outside the supported subset",
  ALL: "list predicates (all, any, none, single) are outside the supported subset",
  ANY: "list predicates (all, any, none, single) are outside the supported subset",
  NONE: "list predicates (all, any, none, single) are outside the supported subset",
  SINGLE: "list predicates (all, any, none, single) are outside the supported subset",
  SHORTESTPATH:
    "shortestPath is not supported: use a bounded variable-length pattern such as -[*1..3]-",
  ALLSHORTESTPATHS:
    "allShortestPaths is not supported: use a bounded variable-length pattern such as -[*1..3]-",
};

export function parseExpression(ts: TokenStream): Expr {
  return parseOr(ts);
}

function parseOr(ts: TokenStream): Expr {
  let left = parseXor(ts);
  while (ts.isWord("OR")) {
    const pos = ts.next().pos;
    left = { kind: "logic", op: "or", left, right: parseXor(ts), pos };
  }
  return left;
}

function parseXor(ts: TokenStream): Expr {
  let left = parseAnd(ts);
  while (ts.isWord("XOR")) {
    const pos = ts.next().pos;
    left = { kind: "logic", op: "xor", left, right: parseAnd(ts), pos };
  }
  return left;
}

function parseAnd(ts: TokenStream): Expr {
  let left = parseNot(ts);
  while (ts.isWord("AND")) {
    const pos = ts.next().pos;
    left = { kind: "logic", op: "and", left, right: parseNot(ts), pos };
  }
  return left;
}

function parseNot(ts: TokenStream): Expr {
  if (ts.isWord("NOT")) {
    const t = ts.next();
    return { kind: "not", operand: ts.nested(t, () => parseNot(ts)), pos: t.pos };
  }
  return parseComparison(ts);
}

/** a < b < c means a < b AND b < c, as in Cypher. */
function parseComparison(ts: TokenStream): Expr {
  const first = parsePredicate(ts);
  let result: Expr | null = null;
  let left = first;
  for (;;) {
    const t = ts.peek();
    if (t.kind === "symbol" && t.value === "=~")
      ts.failAt(t, "regular-expression match (=~) is not supported");
    if (t.kind === "symbol" && t.value === "!=") ts.failAt(t, "use <> for inequality");
    if (t.kind !== "symbol" || !COMPARE_OPS.includes(t.value)) break;
    ts.next();
    const right = parsePredicate(ts);
    const comparison: Expr = { kind: "compare", op: t.value as CompareOp, left, right, pos: t.pos };
    result = result
      ? { kind: "logic", op: "and", left: result, right: comparison, pos: t.pos }
      : comparison;
    left = right;
  }
  return result ?? first;
}

function parsePredicate(ts: TokenStream): Expr {
  let expr = parsePostfix(ts);
  for (;;) {
    const t = ts.peek();
    if (ts.isWord("IS")) {
      ts.next();
      const negated = ts.acceptWord("NOT");
      ts.expectWord("NULL", "after IS / IS NOT");
      expr = { kind: "is-null", operand: expr, negated, pos: t.pos };
    } else if (ts.isWord("IN")) {
      ts.next();
      expr = { kind: "in", left: expr, right: parsePostfix(ts), pos: t.pos };
    } else if (ts.isWord("STARTS") || ts.isWord("ENDS")) {
      ts.next();
      ts.expectWord("WITH", `after ${t.value.toUpperCase()}`);
      expr = {
        kind: "string-match",
        op: t.value.toUpperCase() === "STARTS" ? "starts" : "ends",
        left: expr,
        right: parsePostfix(ts),
        pos: t.pos,
      };
    } else if (ts.isWord("CONTAINS")) {
      ts.next();
      expr = {
        kind: "string-match",
        op: "contains",
        left: expr,
        right: parsePostfix(ts),
        pos: t.pos,
      };
    } else if (t.kind === "symbol" && ARITHMETIC.has(t.value)) {
      ts.failAt(t, `arithmetic (${t.value}) is outside the supported subset`);
    } else {
      return expr;
    }
  }
}

function parsePostfix(ts: TokenStream): Expr {
  let expr = parseAtom(ts);
  for (;;) {
    if (ts.isSymbol(".")) {
      ts.next();
      expr = {
        kind: "property",
        target: expr,
        key: parseName(ts, "as a property key").name,
        pos: expr.pos,
      };
      if (ts.isSymbol("("))
        ts.failAt(
          ts.peek(),
          `function ${quote(ts.source.slice(expr.pos.offset, ts.lastEnd))} is not supported (supported: ${CYPHER_FUNCTIONS.join(", ")})`,
        );
    } else if (ts.isSymbol(":") && expr.kind === "variable") {
      ts.next();
      expr = {
        kind: "has-labels",
        variable: { name: expr.name, pos: expr.pos },
        labels: parseLabelAlternatives(ts),
        pos: expr.pos,
      };
    } else if (ts.isSymbol("[")) {
      ts.failAt(ts.peek(), "list indexing and slicing are outside the supported subset");
    } else {
      return expr;
    }
  }
}

function parseAtom(ts: TokenStream): Expr {
  const t = ts.peek();
  switch (t.kind) {
    case "string":
      ts.next();
      return { kind: "literal", value: t.value, pos: t.pos };
    case "integer":
    case "float":
      ts.next();
      return { kind: "literal", value: parseNumber(ts, t.text, t), pos: t.pos };
    case "param":
      ts.next();
      return { kind: "param", name: t.value, pos: t.pos };
    case "quoted":
      ts.next();
      return { kind: "variable", name: t.value, pos: t.pos };
    case "word":
      return parseWordAtom(ts);
    case "symbol":
      break;
    case "eof":
      ts.fail("expected an expression");
  }
  if (t.value === "(") {
    ts.next();
    const inner = ts.nested(t, () => parseExpression(ts));
    ts.expectSymbol(")", "to close the parenthesis");
    return inner;
  }
  if (t.value === "[") {
    ts.next();
    const items: Expr[] = [];
    if (!ts.isSymbol("]"))
      ts.nested(t, () => {
        do items.push(parseExpression(ts));
        while (ts.acceptSymbol(","));
      });
    ts.expectSymbol("]", "to close the list");
    return { kind: "list", items, pos: t.pos };
  }
  if (t.value === "-") {
    const number = ts.peek(1);
    if (number.kind === "integer" || number.kind === "float") {
      ts.next();
      ts.next();
      return { kind: "literal", value: -parseNumber(ts, number.text, number), pos: t.pos };
    }
    ts.failAt(t, "arithmetic (-) is outside the supported subset");
  }
  if (t.value === "{") ts.failAt(t, "map literals are supported only as property maps in patterns");
  return ts.fail("expected an expression");
}

function parseWordAtom(ts: TokenStream): Expr {
  const t = ts.next();
  const upper = t.value.toUpperCase();
  if (upper === "TRUE" || upper === "FALSE")
    return { kind: "literal", value: upper === "TRUE", pos: t.pos };
  if (upper === "NULL") return { kind: "literal", value: null, pos: t.pos };
  if (upper === "COUNT" && ts.isSymbol("{")) ts.failAt(t, REFUSED_IN_EXPRESSIONS.COUNT_SUBQUERY!);
  const refused = REFUSED_IN_EXPRESSIONS[upper];
  if (refused && (upper === "CASE" || ts.isSymbol("(") || ts.isSymbol("{"))) ts.failAt(t, refused);
  if (!ts.isSymbol("(")) return { kind: "variable", name: t.value, pos: t.pos };
  const fn = FUNCTION_BY_LOWER.get(t.value.toLowerCase());
  if (!fn)
    ts.failAt(
      t,
      `function ${quote(t.value)} is not supported (supported: ${CYPHER_FUNCTIONS.join(", ")})`,
    );
  ts.next();
  if (fn === "count" && ts.acceptSymbol("*")) {
    ts.expectSymbol(")", "after count(*");
    return { kind: "call", name: fn, distinct: false, star: true, args: [], pos: t.pos };
  }
  const distinct = fn === "count" && ts.acceptWord("DISTINCT");
  const args: Expr[] = [];
  if (!ts.isSymbol(")"))
    ts.nested(t, () => {
      do args.push(parseExpression(ts));
      while (ts.acceptSymbol(","));
    });
  ts.expectSymbol(")", `to close ${fn}(`);
  return { kind: "call", name: fn!, distinct, star: false, args, pos: t.pos };
}

function parseNumber(
  ts: TokenStream,
  text: string,
  token: ReturnType<TokenStream["peek"]>,
): number {
  const value = Number(text);
  if (!Number.isFinite(value) || (!/[.eE]/.test(text) && !Number.isSafeInteger(value)))
    ts.failAt(token, `number ${quote(text)} is out of range`);
  return value;
}

/** After ':': Name ('|' Name)*. A memo has exactly one type, so a conjunction (:A:B) is refused. */
export function parseLabelAlternatives(ts: TokenStream): Name[] {
  const labels = [parseName(ts, "as a label or type")];
  for (;;) {
    if (ts.isSymbol(":"))
      ts.failAt(
        ts.peek(),
        "a memo has exactly one type and an edge one relation: use :A|B for either",
      );
    if (!ts.acceptSymbol("|")) return labels;
    labels.push(parseName(ts, "as a label or type"));
  }
}

/** A label, type, property key or alias: a word or a `quoted` name. */
export function parseName(ts: TokenStream, context: string): Name {
  const t = ts.peek();
  if (t.kind !== "word" && t.kind !== "quoted") ts.fail(`expected a name ${context}`);
  ts.next();
  return { name: t.value, pos: t.pos };
}
