// The recursive-descent parser for the read-only Cypher subset: MATCH patterns (',' …) [WHERE],
// repeated, then RETURN [DISTINCT] items [ORDER BY] [SKIP] [LIMIT]. Anything else is a CypherError
// naming the token where the subset ends (write clauses get their own message).
import type {
  CypherQuery,
  Direction,
  MatchClause,
  NodePattern,
  Pattern,
  PropertyMap,
  RelPattern,
  ReturnItem,
  SortItem,
} from "./ast";
import { checkAstCaps } from "./caps";
import { parseExpression, parseLabelAlternatives, parseName } from "./parse-expressions";
import { TokenStream } from "./token-stream";
import { tokenize } from "./tokens";

export function parseCypher(source: string): CypherQuery {
  const ts = new TokenStream(tokenize(source), source);
  const matches: MatchClause[] = [];
  while (ts.isWord("MATCH")) matches.push(parseMatch(ts));
  if (matches.length === 0) ts.fail("a query starts with MATCH");
  if (!ts.isWord("RETURN")) ts.fail("expected MATCH, WHERE or RETURN");
  ts.next();
  const distinct = ts.acceptWord("DISTINCT");
  const star = ts.acceptSymbol("*");
  const items: ReturnItem[] = [];
  if (!star || ts.acceptSymbol(","))
    do items.push(parseReturnItem(ts));
    while (ts.acceptSymbol(","));
  const orderBy: SortItem[] = [];
  if (ts.acceptWord("ORDER")) {
    ts.expectWord("BY", "after ORDER");
    do orderBy.push(parseSortItem(ts));
    while (ts.acceptSymbol(","));
  }
  const skip = ts.acceptWord("SKIP") ? parseExpression(ts) : null;
  const limit = ts.acceptWord("LIMIT") ? parseExpression(ts) : null;
  ts.acceptSymbol(";");
  if (ts.peek().kind !== "eof") ts.fail("expected the end of the query (one read-only statement)");
  const query: CypherQuery = { matches, distinct, star, items, orderBy, skip, limit };
  checkAstCaps(query);
  return query;
}

function parseMatch(ts: TokenStream): MatchClause {
  const pos = ts.next().pos;
  const patterns: Pattern[] = [];
  do patterns.push(parsePattern(ts));
  while (ts.acceptSymbol(","));
  const where = ts.acceptWord("WHERE") ? parseExpression(ts) : null;
  return { patterns, where, pos };
}

function parsePattern(ts: TokenStream): Pattern {
  const pos = ts.peek().pos;
  let pathVariable = null;
  if ((ts.peek().kind === "word" || ts.peek().kind === "quoted") && ts.isSymbol("=", 1)) {
    pathVariable = parseName(ts, "as a path variable");
    ts.next();
  }
  const start = parseNode(ts);
  const steps: Pattern["steps"] = [];
  while (ts.isSymbol("-") || (ts.isSymbol("<") && ts.isSymbol("-", 1))) {
    const rel = parseRel(ts);
    steps.push({ rel, node: parseNode(ts) });
  }
  return { pathVariable, start, steps, pos };
}

function parseNode(ts: TokenStream): NodePattern {
  const pos = ts.expectSymbol("(", "to open a node pattern").pos;
  const variable =
    ts.peek().kind === "word" || ts.peek().kind === "quoted"
      ? parseName(ts, "as a variable")
      : null;
  const labels = ts.acceptSymbol(":") ? parseLabelAlternatives(ts) : [];
  const properties = ts.isSymbol("{") ? parsePropertyMap(ts) : null;
  ts.expectSymbol(")", "to close the node pattern");
  return { variable, labels, properties, pos };
}

/**
 * -[…]->, <-[…]-, -[…]- and the bare forms -->, <--, --. An arrow on both ends means either
 * direction.
 */
function parseRel(ts: TokenStream): RelPattern {
  const pos = ts.peek().pos;
  const leftArrow = ts.acceptSymbol("<");
  ts.expectSymbol("-", "in a relationship pattern");
  let variable = null;
  let types: RelPattern["types"] = [];
  let length: RelPattern["length"] = null;
  let properties: PropertyMap | null = null;
  if (ts.acceptSymbol("[")) {
    variable =
      ts.peek().kind === "word" || ts.peek().kind === "quoted"
        ? parseName(ts, "as a variable")
        : null;
    if (ts.acceptSymbol(":")) types = parseLabelAlternatives(ts);
    if (ts.isSymbol("*")) length = parseLength(ts);
    if (ts.isSymbol("{")) properties = parsePropertyMap(ts);
    ts.expectSymbol("]", "to close the relationship pattern");
  }
  ts.expectSymbol("-", "in a relationship pattern");
  const rightArrow = ts.acceptSymbol(">");
  const direction: Direction = leftArrow === rightArrow ? "both" : rightArrow ? "out" : "in";
  return { variable, types, direction, length, properties, pos };
}

function parseLength(ts: TokenStream): NonNullable<RelPattern["length"]> {
  const pos = ts.next().pos;
  const bound = () => {
    const t = ts.peek();
    if (t.kind !== "integer") return null;
    ts.next();
    const value = Number(t.text);
    if (!Number.isSafeInteger(value)) ts.failAt(t, "hop bound out of range");
    return value;
  };
  const min = bound();
  if (!ts.acceptSymbol("..")) return { min, max: min, pos };
  return { min, max: bound(), pos };
}

function parsePropertyMap(ts: TokenStream): PropertyMap {
  const pos = ts.next().pos;
  const entries: PropertyMap["entries"] = [];
  if (!ts.isSymbol("}")) {
    do {
      const key = parseName(ts, "as a property key");
      ts.expectSymbol(":", "after a property key");
      entries.push({ key, value: parseExpression(ts) });
    } while (ts.acceptSymbol(","));
  }
  ts.expectSymbol("}", "to close the property map");
  return { entries, pos };
}

function parseReturnItem(ts: TokenStream): ReturnItem {
  const pos = ts.peek().pos;
  const expr = parseExpression(ts);
  const text = ts.source.slice(pos.offset, ts.lastEnd);
  const alias = ts.acceptWord("AS") ? parseName(ts, "as a column alias") : null;
  return { expr, alias, column: alias?.name ?? text, pos };
}

function parseSortItem(ts: TokenStream): SortItem {
  const expr = parseExpression(ts);
  if (ts.acceptWord("DESC") || ts.acceptWord("DESCENDING")) return { expr, descending: true };
  if (!ts.acceptWord("ASC")) ts.acceptWord("ASCENDING");
  return { expr, descending: false };
}
