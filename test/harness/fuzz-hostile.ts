// Hostile inputs for the fuzzer: strings PostgreSQL cannot store or that confuse people and
// parsers, prototype names, JSON too deep or too wide to walk recursively, and odd path segments.
// Every value is raw JSON text, spliced into an otherwise valid body, so nesting of any depth never
// passes through JSON.stringify (which would overflow the test's own stack).
import type { Schema } from "./fuzz-schema";

export type FieldKind = "string" | "object";
export type Field = { path: string[]; kind: FieldKind };
export type Hostile = { label: string; json: string; unstorable: boolean };

/**
 * Stays under the default 1 MiB body cap, so it reaches the schema and the database, not just layer
 * 4.
 */
const NEAR_MEGABYTE = (1 << 20) - 8 * 1024;

const str = (label: string, s: string, unstorable = false): Hostile => ({
  label,
  json: JSON.stringify(s),
  unstorable,
});
const deep = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
const deepArray = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const wide = (keys: number) =>
  `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i}`).join(",")}}`;

export const HOSTILE_STRINGS: Hostile[] = [
  str("NUL", "\u0000", true),
  str("NUL inside", "before\u0000after", true),
  str("lone high surrogate", "\ud800", true),
  str("lone low surrogate inside", "a\udc00b", true),
  str("RTL override", "\u202Egnp.exe\u202C\u200F\u061C"),
  str("zero-width", "\u200B\u200C\u200D\u2060\uFEFF"),
  str("__proto__", "__proto__"),
  str("constructor", "constructor"),
  str("toString", "toString"),
  str("hasOwnProperty", "hasOwnProperty"),
  str("control characters", "\u0001\u0007\u001b[31m\u007f"),
  // Extended-year and year-zero dates: a 422 in a date field, plain text elsewhere, never a 500.
  str("year 10000", "+010000-01-01T00:00:00Z"),
  str("year -1", "-000001-01-01T00:00:00Z"),
  str("year 0", "0000-01-01T00:00:00Z"),
  str("after the last day", "what happened after 9999-12-31"),
  str("near 1 MiB", "x".repeat(NEAR_MEGABYTE)),
  str("over 1 MiB", "y".repeat((1 << 20) + 1)),
];

export const HOSTILE_OBJECTS: Hostile[] = [
  { label: "nested 100,000 deep", json: deep(100_000), unstorable: false },
  { label: "arrays nested 100,000 deep", json: deepArray(100_000), unstorable: false },
  { label: "nested 40 deep", json: deep(40), unstorable: false },
  { label: "20,000 keys wide", json: wide(20_000), unstorable: false },
  {
    label: "prototype names as keys",
    json: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"toString":"x","hasOwnProperty":1}',
    unstorable: false,
  },
  { label: "NUL in a key", json: '{"a\\u0000b":1}', unstorable: true },
  { label: "lone surrogate in a key", json: '{"\\ud800":1}', unstorable: true },
  { label: "NUL in a nested value", json: '{"a":{"b":["\\u0000"]}}', unstorable: true },
  {
    label: "RTL and zero-width keys",
    json: '{"\\u202e":"\\u200b","\\ufeff":1}',
    unstorable: false,
  },
];

/** Path segments, already percent-encoded as they go on the wire. */
export const ODD_SEGMENTS = [
  "%00",
  "a%00b",
  "__proto__",
  "constructor",
  "toString",
  "prototype",
  "%ED%A0%80",
  "%E2%80%AE",
  "%E2%80%8B",
  "..",
  "%2e%2e",
  "%2F",
  "%5C",
  "%",
  "%ZZ",
  "%C0%AF",
  "%FF",
  "x".repeat(5000),
  "%20",
  "null",
  "-1",
  "1e309",
];

/**
 * Query values, percent-encoded; lone surrogates are sent as the UTF-8 bytes a careless client
 * would send.
 */
export const ODD_QUERY_VALUES = [
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%E2%80%AE%E2%80%8B",
  "__proto__",
  "constructor",
  "toString",
  "%",
  "%ZZ",
  "%C0%AF",
  "z".repeat(20_000),
  "-1",
  "1e309",
  "NaN",
  "%5B%5D",
  "%7B%7D",
  "%2B010000-01-01T00%3A00%3A00Z",
  "-000001-01-01T00%3A00%3A00Z",
  "0000-01-01",
];

/** Prototype names as top-level query parameter names. */
export const ODD_QUERY_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "__proto__%5Bpolluted%5D",
  // GET /v1/memories reads metadata.<key> parameters itself
  "metadata.",
  "metadata.__proto__",
  "metadata.%00",
  "metadata.%ED%A0%80",
  `metadata.${"k".repeat(200)}`,
];

/**
 * Every string and object field of a request body schema, as paths (arrays stand in with their
 * first item).
 */
export function fieldsOf(
  s: Schema | undefined,
  resolve: (s: Schema | undefined) => Schema,
  path: string[] = [],
  depth = 0,
  out: Field[] = [],
): Field[] {
  if (!s || depth > 6) return out;
  s = resolve(s);
  const branches: Schema[] | undefined = s.anyOf ?? s.oneOf ?? s.allOf;
  if (Array.isArray(branches)) {
    for (const b of branches) fieldsOf(b, resolve, path, depth + 1, out);
    return dedupe(out);
  }
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes("string") && path.length > 0) out.push({ path, kind: "string" });
  if (types.includes("array")) fieldsOf(s.items, resolve, [...path, "0"], depth + 1, out);
  if (types.includes("object") || (types.length === 0 && s.properties)) {
    const props = Object.entries<Schema>(s.properties ?? {});
    if (path.length > 0 && (props.length === 0 || s.additionalProperties))
      out.push({ path, kind: "object" });
    for (const [key, child] of props) fieldsOf(child, resolve, [...path, key], depth + 1, out);
  }
  if (types.length === 0 && !s.properties && path.length > 0) out.push({ path, kind: "object" });
  return dedupe(out);
}

function dedupe(fields: Field[]): Field[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.kind}:${f.path.join("/")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const SENTINEL = "\u0001svc-fuzz-hostile\u0001";

/**
 * `base` as JSON text with the value at `path` replaced by the raw JSON `json` (intermediate
 * containers created).
 */
export function splice(base: unknown, path: string[], json: string): string {
  const root: any =
    base !== null && typeof base === "object" && !Array.isArray(base) ? structuredClone(base) : {};
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const nextIsIndex = /^\d+$/.test(path[i + 1]!);
    if (node[key] === null || typeof node[key] !== "object") node[key] = nextIsIndex ? [] : {};
    node = node[key];
  }
  node[path[path.length - 1]!] = SENTINEL;
  return JSON.stringify(root).replace(JSON.stringify(SENTINEL), () => json);
}

/**
 * Hostile values of a documented request header (Idempotency-Key: 1–255 printable ASCII), as far as
 * the Fetch API lets them be sent (no NUL, CR or LF, Latin-1 only; surrounding blanks are trimmed).
 * Each must be a 4xx problem or accepted, never a 5xx; an `invalid` one is never accepted.
 */
export const HOSTILE_HEADER_VALUES: Array<{ value: string; invalid: boolean }> = [
  { value: "", invalid: true },
  { value: " ", invalid: true },
  { value: '""', invalid: true },
  { value: "k".repeat(256), invalid: true },
  { value: "k".repeat(16 * 1024), invalid: true },
  { value: "caf\u00e9\u00ff", invalid: true },
  { value: "tab\there", invalid: true },
  { value: "\u0001\u007f", invalid: true },
  { value: '"', invalid: false },
  { value: '"\\"', invalid: false },
  { value: "k".repeat(255), invalid: false },
  { value: "__proto__", invalid: false },
  { value: "constructor", invalid: false },
  { value: "${jndi:ldap://x}", invalid: false },
  { value: "%00", invalid: false },
  { value: "' OR 1=1 --", invalid: false },
  { value: "key, key", invalid: false },
];
