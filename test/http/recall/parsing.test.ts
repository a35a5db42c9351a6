// The documented tables of docs/recall.md: time expressions, redaction rules, code tokens stay
// true.
import { describe, expect, test } from "bun:test";
import { anyWordTermsOf } from "../../../src/domain/recall/any-word-terms";
import { everyLexemeRequired } from "../../../src/domain/recall/query-words";
import { redactText } from "../../../src/domain/recall/redaction";
import { dateWrittenIn, parseTimeExpression } from "../../../src/domain/recall/time-expressions";

const now = new Date("2026-11-22T04:30:00Z"); // a Sunday
const window = (q: string) => {
  const w = parseTimeExpression(q, now).window;
  return w && [w.from?.toISOString() ?? null, w.to?.toISOString() ?? null, w.expression];
};

describe("time expressions (UTC, weeks start Monday)", () => {
  const cases: Array<[string, [string | null, string | null, string]]> = [
    ["what happened today", ["2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z", "today"]],
    ["deploys yesterday", ["2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z", "yesterday"]],
    ["notes from this week", ["2026-11-16T00:00:00.000Z", "2026-11-23T00:00:00.000Z", "this week"]],
    ["notes from last week", ["2026-11-09T00:00:00.000Z", "2026-11-16T00:00:00.000Z", "last week"]],
    [
      "last month's invoices",
      ["2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z", "last month"],
    ],
    [
      "errors in the last 2 weeks",
      ["2026-11-08T04:30:00.000Z", "2026-11-22T04:30:00.000Z", "in the last 2 weeks"],
    ],
    ["outage 3 days ago", ["2026-11-19T00:00:00.000Z", "2026-11-20T00:00:00.000Z", "3 days ago"]],
    [
      "meetings in March 2025",
      ["2025-03-01T00:00:00.000Z", "2025-04-01T00:00:00.000Z", "March 2025"],
    ],
    ["what changed since March", ["2026-03-01T00:00:00.000Z", null, "since March"]],
    ["plans in December", ["2025-12-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "in December"]],
    ["decisions made before 2024", [null, "2024-01-01T00:00:00.000Z", "before 2024"]],
    [
      "shipped on 2025-03-14",
      ["2025-03-14T00:00:00.000Z", "2025-03-15T00:00:00.000Z", "2025-03-14"],
    ],
    ["after 2025-01-01", ["2025-01-02T00:00:00.000Z", null, "after 2025-01-01"]],
    ["until last week", [null, "2026-11-16T00:00:00.000Z", "until last week"]],
  ];
  for (const [query, expected] of cases) test(query, () => expect(window(query)).toEqual(expected));

  test("an event anchor, and no expression at all", () => {
    expect(parseTimeExpression("what did we decide before the launch?", now).anchor).toEqual({
      relation: "before",
      event: "launch",
      expression: "before the launch",
    });
    expect(parseTimeExpression("bugs after our product launch", now).anchor?.relation).toBe(
      "after",
    );
    expect(parseTimeExpression("port 8080 on server 2024b", now)).toEqual({
      window: null,
      anchor: null,
      rest: "port 8080 on server 2024b",
    });
  });

  test("dates written in a memory", () => {
    expect(dateWrittenIn("launched on March 20, 2025 at noon")?.toISOString()).toBe(
      "2025-03-20T00:00:00.000Z",
    );
    expect(dateWrittenIn("launch: 20th March 2025")?.toISOString()).toBe(
      "2025-03-20T00:00:00.000Z",
    );
    expect(dateWrittenIn("no date here, version 2.3")).toBeNull();
  });
});

describe("redaction", () => {
  const cases: Array<[string, string]> = [
    ["mail bob.smith+x@example.co.uk now", "mail [REDACTED:email] now"],
    ["call +44 20 7946 0958 or (415) 555-0132", "call [REDACTED:phone] or [REDACTED:phone]"],
    [
      "cards 5500-0000-0000-0004 and 1234 5678 9012 3456",
      "cards [REDACTED:card] and 1234 5678 9012 3456",
    ],
    ["AKIAIOSFODNN7EXAMPLE and ghp_" + "a".repeat(36), "[REDACTED:secret] and [REDACTED:secret]"],
    ["Authorization: Bearer abcdefghijklmnop1234", "Authorization: [REDACTED:secret]"],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk", "jwt [REDACTED:secret]"],
    [
      "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----",
      "[REDACTED:private_key]",
    ],
    ["client_secret = 's3cr3t-value'", "client_secret = '[REDACTED:secret]'"],
  ];
  for (const [input, output] of cases)
    test(input.slice(0, 40), () => expect(redactText(input).value).toBe(output));

  test("ordinary numbers are left alone", () => {
    for (const text of [
      "released 2025-03-14",
      "version 1.2.3 on port 8080",
      "order 123456789",
      "ip 10.0.0.1",
      "ticket INC-20931",
    ]) {
      expect(redactText(text)).toEqual({ value: text, count: 0 });
    }
  });
});

describe("any-word terms (LEXICAL's second tier, TEMPORAL's ranking)", () => {
  test("the user's words weigh 1, WordNet relatives 0.7: purchase → buy, bought; dog → puppy", () => {
    const t = anyWordTermsOf("purchase a dog");
    const weightOf = (w: string) => t.weights[t.words.indexOf(w)];
    expect(weightOf("purchase")).toBe(1);
    expect(weightOf("dog")).toBe(1);
    for (const related of ["buy", "bought", "puppy"]) expect(weightOf(related), related).toBe(0.7);
    expect(t.expansions).toBe(t.weights.filter((w) => w === 0.7).length);
  });
  test("code's names weigh 0.3: string → str, dicts → dictionary, file name → filename", () => {
    const t = anyWordTermsOf("read a file name into a string of dicts", { related: false });
    const weightOf = (w: string) => t.weights[t.words.indexOf(w)];
    for (const own of ["read", "file", "name", "string", "dicts"])
      expect(weightOf(own), own).toBe(1);
    for (const code of ["str", "dictionary", "filename", "reada"])
      expect(weightOf(code), code).toBe(0.3);
    expect(t.expansions).toBe(0);
  });
  test("a quoted phrase or an excluded word: no short forms, no joins", () => {
    expect(anyWordTermsOf('"file name" string').words).toEqual(['"file', 'name"', "string"]);
    expect(anyWordTermsOf("file name -string").words).toEqual(["file", "name"]);
  });
  test("inflected query words find their lemma's relatives (purchased → purchase → bought)", () => {
    expect(anyWordTermsOf("purchased cars").words).toContain("bought");
  });
  test("a quoted phrase or an excluded word turns expansion off; at most 32 relatives", () => {
    expect(anyWordTermsOf('"purchase" dog').expansions).toBe(0);
    expect(anyWordTermsOf("purchase -dog").expansions).toBe(0);
    expect(
      anyWordTermsOf("purchase dog food group mother computer vehicle sport series").expansions,
    ).toBe(32);
  });
  test('prototype names find no relatives (the fuzzer\'s 500 on a recall for "constructor")', () => {
    for (const word of [
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      "valueOf",
      "constructors",
      "toStrings",
    ]) {
      expect(anyWordTermsOf(word).expansions, word).toBe(0);
    }
  });
});

describe("which all-words queries require every lexeme (LEXICAL's first tier from postings)", () => {
  test("plain text of five words or more does; websearch operators and short prefix queries do not", () => {
    expect(everyLexemeRequired("what prefers TLS certificates as agreed")).toBe(true);
    expect(everyLexemeRequired("Alice's e-mail follow-up about the launch")).toBe(true);
    expect(everyLexemeRequired("orders shipped to Oregon before the holiday")).toBe(true); // "or" only as a word of its own
    expect(everyLexemeRequired('find the "oat milk" note for the team')).toBe(false);
    expect(everyLexemeRequired("deploy pipeline notes -staging from last sprint")).toBe(false);
    expect(everyLexemeRequired("deploy pipeline or database migration notes")).toBe(false);
    expect(everyLexemeRequired("maria liv")).toBe(false); // a prefix query: "liv" matches by prefix, not as a lexeme
  });
});
