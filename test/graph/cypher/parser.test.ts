// The parser against the reference grammar (generate.ts): every generated query parses back to the
// AST it was printed from and passes the checks; refused clauses are reported at their exact token;
// no input string makes the parser throw anything but a positioned CypherError.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { checkCypher } from "../../../src/data/queries/graph/cypher/check";
import { CypherError } from "../../../src/data/queries/graph/cypher/errors";
import { parseCypher } from "../../../src/data/queries/graph/cypher/parser";
import { cypherQueryArb, withoutPositions } from "./generate";

const LIMITS = { maxHops: 5 };

function errorOf(text: string, params: Record<string, unknown> = {}): CypherError {
  try {
    checkCypher(parseCypher(text), params, LIMITS);
  } catch (error) {
    if (error instanceof CypherError) return error;
    throw error;
  }
  throw new Error(`expected a CypherError for ${JSON.stringify(text)}`);
}

/** Line and column (1-based) of an offset, computed independently of the tokenizer. */
function lineColumn(text: string, offset: number) {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

describe("reference grammar round trip", () => {
  test("every generated query parses to the AST it was printed from, and passes the checks", () => {
    fc.assert(
      fc.property(cypherQueryArb(), (g) => {
        const parsed = parseCypher(g.text);
        expect(withoutPositions(parsed)).toEqual(withoutPositions(g.query));
        checkCypher(parsed, g.params, LIMITS);
      }),
      { numRuns: 300, seed: 1201 },
    );
  }, 30_000);
});

const REFUSED: Array<[string, string]> = [
  ["CREATE (x:PERSON {name: 'Eve'})", "CREATE"],
  ["MERGE (x:PERSON {name: 'Eve'})", "MERGE"],
  ["SET a.name = 'Eve'", "SET"],
  ["DELETE a", "DELETE"],
  ["DETACH DELETE a", "DETACH"],
  ["REMOVE a.name", "REMOVE"],
  ["CALL db.labels()", "CALL"],
  ["LOAD CSV FROM 'file:///x' AS row", "LOAD"],
  ["FOREACH (x IN [1] | SET a.n = x)", "FOREACH"],
  ["UNWIND [1, 2] AS x", "UNWIND"],
  ["WITH a", "WITH"],
  ["OPTIONAL MATCH (a)-->(z)", "OPTIONAL"],
  ["UNION MATCH (a) RETURN a", "UNION"],
];

describe("clauses outside the subset", () => {
  test("each refused clause, wherever it is inserted, is reported at its own token, line and column", () => {
    fc.assert(
      fc.property(
        cypherQueryArb(),
        fc.constantFrom(...REFUSED),
        fc.boolean(),
        (g, [clause, token], atStart) => {
          const returnAt = g.text.search(/\bRETURN\b/i);
          const at = atStart ? 0 : returnAt;
          const text = `${g.text.slice(0, at)}${clause}\n${g.text.slice(at)}`;
          const error = errorOf(text, g.params);
          expect(error.token).toBe(token);
          expect(error.pos).toEqual({ offset: at, ...lineColumn(text, at) });
          expect(error.message).toContain(token === "DETACH" ? "DETACH DELETE" : token);
        },
      ),
      { numRuns: 200, seed: 1202 },
    );
  }, 30_000);

  test("write clauses say the query is read-only; other refusals say why", () => {
    expect(errorOf("MATCH (n)\n  DELETE n").message).toBe(
      "write clause DELETE is not allowed: CYPHER queries are read-only",
    );
    expect(errorOf("MATCH (n)\n  DELETE n").pos).toEqual({ offset: 12, line: 2, column: 3 });
    expect(errorOf("MATCH (n) WHERE n.name =~ 'A.*' RETURN n")).toMatchObject({
      token: "=~",
      message: "regular-expression match (=~) is not supported",
    });
    expect(errorOf("MATCH (a), (b) RETURN shortestPath((a)-[*]-(b))").message).toContain(
      "shortestPath is not supported",
    );
    expect(errorOf("MATCH (n) RETURN CASE WHEN n.x THEN 1 END").token).toBe("CASE");
    expect(errorOf("MATCH (n) RETURN n.level + 1").message).toContain("arithmetic (+)");
    expect(errorOf("MATCH (n) RETURN collect(n)").message).toContain("collect");
    expect(errorOf("MATCH (n) RETURN apoc.text.join(['a'], ',')").message).toContain(
      "function 'apoc.text.join' is not supported",
    );
    expect(errorOf("MATCH (n:PERSON:ORG) RETURN n").message).toContain("use :A|B");
    expect(errorOf("MATCH (n) WHERE exists { MATCH (n)-->() } RETURN n").token).toBe("exists");
  });
});

describe("checks", () => {
  const cases: Array<[string, string, Record<string, unknown>?]> = [
    ["MATCH (n) RETURN m", "variable m is not defined"],
    ["MATCH (n {name: $who}) RETURN n", "parameter $who is not given in params"],
    ["MATCH (n) WHERE count(*) > 1 RETURN n", "count() is allowed in RETURN and ORDER BY only"],
    ["MATCH (n) RETURN n.name, n.name", "two RETURN columns are named n.name"],
    ["MATCH (n)-[r*1..3]->(m) RETURN type(r)", "type() takes a relationship variable"],
    ["MATCH (n)-[r*1..3]->(m) RETURN length(r)", "length() takes a path variable"],
    ["MATCH (n)-[r*1..9]->(m) RETURN m", "at most 5 hops"],
    ["MATCH (n)-[r*3..1]->(m) RETURN m", "the hop range 3..1 is empty"],
    ["MATCH (n)-[r]->(m), (x)-[r]->(y) RETURN m", "variable r is already bound"],
    ["MATCH (n) RETURN n.name AS k, count(n) + 0", "arithmetic"],
    ["MATCH (n) RETURN coalesce(n.name, count(*))", "n is used outside the aggregation"],
    ["MATCH (n) RETURN DISTINCT n.name ORDER BY n.level", "ORDER BY can only use returned columns"],
    ["MATCH (n) RETURN n LIMIT -1", "LIMIT takes a non-negative integer"],
    ["MATCH (n) RETURN n SKIP $s", "SKIP takes a non-negative integer", { s: "2" }],
    ["MATCH (n) WHERE n.name = m.name MATCH (m) RETURN n", "variable m is not defined"],
    [
      "MATCH (n {name: n.other}) RETURN n",
      "property maps in patterns take literals and $parameters",
    ],
  ];
  for (const [text, message, params] of cases) {
    test(`${text} → ${message}`, () => expect(errorOf(text, params).message).toContain(message));
  }
});

describe("no input breaks the parser", () => {
  const VOCABULARY = [
    "MATCH",
    "RETURN",
    "WHERE",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "-",
    "->",
    "<-",
    ":",
    "|",
    "*",
    "..",
    ",",
    "n",
    "`x`",
    "'s'",
    '"',
    "'",
    "$p",
    "1",
    "2.5",
    "=",
    "<>",
    "AND",
    "NOT",
    "IN",
    "count",
    "(*)",
    "DISTINCT",
    "ORDER BY",
    "LIMIT",
    "\n",
    "/*",
    "*/",
    "//",
    "\\",
    "\u0000",
    "🙂",
    "CREATE",
    "=~",
  ];
  const onlyCypherErrors = (text: string) => {
    try {
      checkCypher(parseCypher(text), {}, LIMITS);
    } catch (error) {
      if (!(error instanceof CypherError)) throw error;
      expect(error.pos.offset).toBeGreaterThanOrEqual(0);
      expect(error.pos.offset).toBeLessThanOrEqual(text.length);
      expect(error.pos).toEqual({
        offset: error.pos.offset,
        ...lineColumn(text, error.pos.offset),
      });
    }
  };

  test("arbitrary strings and token soups end in a positioned CypherError or a query", () => {
    fc.assert(fc.property(fc.string({ maxLength: 80, unit: "binary" }), onlyCypherErrors), {
      numRuns: 200,
      seed: 1203,
    });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 40 }).map((t) => t.join(" ")),
        onlyCypherErrors,
      ),
      { numRuns: 300, seed: 1204 },
    );
  }, 30_000);

  test("size caps: patterns, relationships, expression nodes and nesting depth", () => {
    expect(
      errorOf(`MATCH ${Array.from({ length: 9 }, (_, i) => `(n${i})`).join(", ")} RETURN n0`)
        .message,
    ).toContain("more than 8 patterns");
    expect(errorOf(`MATCH (a)${"-->()".repeat(17)} RETURN a`).message).toContain(
      "more than 16 relationship patterns",
    );
    expect(
      errorOf(
        `MATCH (a) WHERE a.x IN [${Array.from({ length: 300 }, (_, i) => i).join(", ")}] RETURN a`,
      ).message,
    ).toContain("more than 256 expression nodes");
    expect(
      errorOf(`MATCH (a) WHERE ${"(".repeat(40)}true${")".repeat(40)} RETURN a`).message,
    ).toContain("nest deeper than 32");
    expect(errorOf(`MATCH (a) WHERE ${"NOT ".repeat(5000)}true RETURN a`).message).toContain(
      "nest deeper than 32",
    );
  });
});
