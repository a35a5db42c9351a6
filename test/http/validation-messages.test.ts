// Issue 15 item 6: every validation problem says in plain words which field failed and what is
// allowed, for every schema in the service. The walk below takes each operation of /openapi.json
// (all gates on), breaks one field at a time (body fields, nested closed objects, query and path
// parameters) and checks the detail names that field and reads as words, not validator jargon. New
// routes are covered as they land.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { randomKey } from "../harness/chaos-serve";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { resolver, validOf, type Schema } from "../harness/fuzz-schema";
import { isAuthenticated, operationsOf, type Operation } from "../harness/openapi";

const SUPERADMIN_KEY = randomKey();
const JARGON = /Expected|kind '|should be one of|UnionEnum|found: |\bproperty '/;

let t: TestApp;
let tenant: Tenant;
let ops: Operation[];
let resolve: (s: Schema | undefined) => Schema;
beforeAll(async () => {
  t = await testApp({
    DISTILL_ENABLED: true,
    INGEST_ENABLED: true,
    REFINE_ENABLED: true,
    FORGET_PROOF_ENABLED: true,
    SUPERADMIN_ENABLED: true,
    SUPERADMIN_API_KEY: SUPERADMIN_KEY,
  });
  tenant = await t.tenant("messages");
  resolve = resolver((await t.request("GET", "/openapi.json")).body);
  ops = await operationsOf(t);
});
afterAll(() => t.close());

function kindsOf(s: Schema, into = new Set<string>()): Set<string> {
  s = resolve(s);
  if (typeof s.type === "string") into.add(s.format === "integer" ? "integer" : s.type);
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) kindsOf(branch, into);
  return into;
}

/** A value of the wrong kind for `s`, or undefined when the schema takes any JSON (free-form). */
function breaking(s: Schema): unknown {
  s = resolve(s);
  if (
    Array.isArray(s.enum) ||
    s.const !== undefined ||
    (s.anyOf ?? []).some((b: Schema) => b.const !== undefined)
  )
    return "NOT_ONE_OF_THE_CHOICES";
  const kinds = kindsOf(s);
  if (kinds.has("integer") || kinds.has("number"))
    return typeof s.maximum === "number" ? s.maximum + 1 : { not: "a number" };
  if (kinds.has("string")) return 12345;
  if (kinds.has("boolean")) return "maybe";
  if (kinds.has("array")) return "not a list";
  if (kinds.has("object")) return 7;
  return undefined;
}

const label = (pointer: string[]) =>
  pointer.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
const keyFor = (op: Operation) =>
  Array.isArray(op.security) && op.security.length > 0 ? SUPERADMIN_KEY : tenant.key;

const valueAt = (value: unknown, path: string[]) =>
  path.reduce<unknown>((v, p) => (v as Record<string, unknown> | undefined)?.[p], value);

type Case = {
  op: Operation;
  field: string;
  send: () => Promise<Awaited<ReturnType<TestApp["request"]>>>;
};

function bodyCases(op: Operation): Case[] {
  const schema = op.operation.requestBody?.content?.["application/json"]?.schema;
  if (!schema) return [];
  const base = fc.sample(validOf(schema, resolve), { numRuns: 1, seed: 42 })[0] as Record<
    string,
    unknown
  >;
  const cases: Case[] = [];
  const visit = (s: Schema, pointer: string[], depth: number) => {
    for (const [name, prop] of Object.entries<Schema>(resolve(s).properties ?? {})) {
      const path = [...pointer, name];
      const bad = breaking(prop);
      if (bad !== undefined) {
        const body = structuredClone(base);
        let target: Record<string, unknown> = body;
        for (const p of pointer) target = (target[p] ??= {}) as Record<string, unknown>;
        target[name] = bad;
        cases.push({
          op,
          field: label(path),
          send: () => t.request(op.method, op.concretePath, { key: keyFor(op), body }),
        });
      }
      // Closed nested objects, and the first item of a list of objects (batch items), are walked
      // too.
      const inner = resolve(prop);
      if (depth >= 2) continue;
      if (inner.type === "object" && inner.properties) visit(inner, path, depth + 1);
      const items = inner.type === "array" ? resolve(inner.items ?? {}) : undefined;
      if (
        items?.type === "object" &&
        items.properties &&
        Array.isArray(valueAt(base, path)) &&
        (valueAt(base, path) as unknown[]).length > 0
      )
        visit(items, [...path, "0"], depth + 1);
    }
  };
  visit(schema, [], 0);
  return cases;
}

function parameterCases(op: Operation): Case[] {
  const cases: Case[] = [];
  for (const p of op.operation.parameters ?? []) {
    const s = resolve(p.schema ?? {});
    let bad: string | undefined;
    if (p.in === "path" && typeof s.maxLength === "number") bad = "x".repeat(s.maxLength + 1);
    if (p.in === "query") {
      const wrong = breaking(s);
      bad =
        typeof s.maxLength === "number"
          ? "x".repeat(s.maxLength + 1)
          : wrong === undefined || (typeof wrong === "number" && s.type === "string")
            ? undefined
            : String(typeof wrong === "object" ? "abc" : wrong);
    }
    if (bad === undefined) continue;
    // One field broken at a time: the other required query parameters get valid values.
    const others = (op.operation.parameters ?? []).filter(
      (o: { in: string; required?: boolean; name: string }) =>
        o.in === "query" && o.required && o.name !== p.name,
    );
    const valid = others
      .map(
        (o: { name: string; schema?: Schema }) =>
          `&${o.name}=${encodeURIComponent(String(fc.sample(validOf(o.schema ?? {}, resolve), { numRuns: 1, seed: 42 })[0]))}`,
      )
      .join("");
    const path =
      p.in === "path"
        ? op.path.replace(`{${p.name}}`, encodeURIComponent(bad)).replace(/\{[^}]+\}/g, "x")
        : `${op.concretePath}?${p.name}=${encodeURIComponent(bad)}${valid}`;
    cases.push({
      op,
      field: `${p.in === "path" ? "path" : "query"} parameter ${p.name}`,
      send: () =>
        t.request(op.method, path, {
          key: keyFor(op),
          body: ["POST", "PUT", "PATCH"].includes(op.method) ? {} : undefined,
        }),
    });
  }
  return cases;
}

describe("validation problems name the field in plain words", () => {
  test("every body field, nested field and parameter of every route", async () => {
    const cases = ops
      .filter(isAuthenticated)
      .flatMap((op) => [...bodyCases(op), ...parameterCases(op)]);
    const failures: string[] = [];
    for (const c of cases) {
      const r = await c.send();
      const where = `${c.op.method} ${c.op.path} [${c.field}]`;
      if (r.status !== 422) failures.push(`${where}: expected 422, got ${show(r)}`);
      else if (!r.body.detail.includes(c.field))
        failures.push(`${where}: detail does not name the field: ${r.body.detail}`);
      else if (JARGON.test(r.body.detail))
        failures.push(`${where}: validator jargon: ${r.body.detail}`);
      else if (
        !r.body.errors.every((e: { message: string }) => /^(must|is|field name) /.test(e.message))
      )
        failures.push(`${where}: ${JSON.stringify(r.body.errors)}`);
    }
    console.log(
      `validation messages: ${cases.length} broken fields over ${ops.length} operations`,
      process.env.SVC_TEST_VERBOSE
        ? cases.map((c) => `${c.op.method} ${c.op.path} ${c.field}`)
        : "",
    );
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(70);
  }, 60_000);

  test("the words for a top_k that is too large, a bad strategy and a missing field", async () => {
    const recall = (body: unknown) =>
      t.request("POST", "/v1/memories/recall", { key: tenant.key, body });
    expect((await recall({ agent_id: "a", query: "q", top_k: 101 })).body.detail).toBe(
      `top_k must be an integer from 1 to ${t.config.RECALL_TOP_K_MAX}`,
    );
    expect((await recall({ agent_id: "a", query: "q", strategy: "FAST" })).body.detail).toBe(
      "strategy must be one of: AUTO, VECTOR, LEXICAL, GRAPH, TRIPLET, TRACE, TEMPORAL, ASK, CYPHER, CODE",
    );
    expect((await recall({ query: "q" })).body.detail).toBe("agent_id is required");
    expect((await t.request("GET", "/v1/audit?limit=0", { key: tenant.key })).body.detail).toBe(
      "query parameter limit must be an integer from 1 to 200",
    );
  });

  test("the example in docs/api.md is what the service answers", async () => {
    const docs = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const example = JSON.parse(
      /## Errors[\s\S]*?```json\n([\s\S]*?)```/.exec(docs)![1]!.replace(/"req_01J…"/, '"x"'),
    );
    const r = await t.request("POST", example.instance, {
      key: tenant.key,
      body: { agent_id: "agent-1", query: "deploy script", top_k: 101 },
    });
    expect({ ...r.body, request_id: "x" }).toEqual(example);
  });
});
