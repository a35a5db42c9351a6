// CYPHER through HTTP: a two-hop pattern with parameters returns its table and the memories that
// ground it (audited like every recall); every write clause is a 422 pointing at the token; another
// tenant's graph is invisible; arbitrary query texts never produce a 5xx, over JSON and over the
// stream.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { seedOrgChart, type OrgChart } from "../../graph/cypher/org-chart";
import { recall } from "./seed";

const AGENT = "agent-cypher-http";
let t: TestApp;
let a: Tenant;
let b: Tenant;
let g: OrgChart;

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("cypher-http-a");
  b = await t.tenant("cypher-http-b");
  g = await seedOrgChart(t, a, AGENT);
});
afterAll(() => t.close());

const TWO_HOPS =
  "MATCH (p:PERSON {name: $name})-[r1:REPORTS_TO]->(m)-[r2:REPORTS_TO]->(top)\nRETURN m.name AS manager, top.name AS skip_level, r1.fact AS fact";

describe("answers", () => {
  test("a two-hop pattern with parameters: the table, the grounding memories, and an audit row", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: TWO_HOPS,
      params: { name: "Alice" },
      strategy: "CYPHER",
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.strategy).toBe("CYPHER");
    expect(res.body.graph.table).toEqual({
      columns: ["manager", "skip_level", "fact"],
      rows: [{ manager: "Bob", skip_level: "Carol", fact: "Alice reports to Bob" }],
    });
    const ids = res.body.results.map((r: { memory_id: string }) => r.memory_id);
    // The returned nodes (Bob, Carol) and the edge read through r1.fact ground the results; edges
    // first.
    expect(ids).toEqual([g.memories[0]!, g.memories[1]!, g.memories[4]!]);
    expect(res.body.results[0].graph).toEqual({ edge_ids: [g.edge.a_b!] });
    const [audit] = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) => tx<{ detail: { strategy: string; result_count: number }; target_ids: string[] }[]>`
      SELECT detail, target_ids FROM audit_pending WHERE operation = 'recall' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit!.detail).toMatchObject({ strategy: "CYPHER", result_count: 3 });
    expect(audit!.target_ids).toEqual(ids);
  });

  test("AUTO sends a query that parses as Cypher to CYPHER, and the stream carries the table in its summary", async () => {
    const auto = await recall(t, a.key, {
      agent_id: AGENT,
      query: TWO_HOPS,
      params: { name: "Alice" },
    });
    expect(auto.status, show(auto)).toBe(200);
    expect(auto.body.strategy).toBe("CYPHER");
    expect(auto.body.routing).toMatchObject({ requested: "AUTO", method: "rules" });
    const stream = await t.request("POST", "/v1/memories/recall/stream", {
      key: a.key,
      body: { agent_id: AGENT, query: TWO_HOPS, params: { name: "Alice" }, strategy: "CYPHER" },
    });
    expect(stream.status).toBe(200);
    const summary = stream.text.split("\n\n").find((f) => f.startsWith("event: summary"))!;
    expect(JSON.parse(summary.split("data: ")[1]!).graph.table.rows).toEqual([
      { manager: "Bob", skip_level: "Carol", fact: "Alice reports to Bob" },
    ]);
  });

  test("another tenant with the same agent id sees an empty table, and no graph notice", async () => {
    const res = await recall(t, b.key, {
      agent_id: AGENT,
      query: TWO_HOPS,
      params: { name: "Alice" },
      strategy: "CYPHER",
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.graph.table.rows).toEqual([]);
    expect(res.body.results).toEqual([]);
    expect(res.body.graph.notice).toContain("no graph yet");
  });
});

describe("refusals", () => {
  const WRITES: Array<[string, string, number, number]> = [
    ["MATCH (p:PERSON)\nCREATE (x:PERSON {name: 'Eve'})\nRETURN x", "CREATE", 2, 1],
    ["MATCH (p:PERSON) MERGE (x:ORG {name: 'Evil'}) RETURN x", "MERGE", 1, 18],
    ["MATCH (p:PERSON)\n  SET p.name = 'Eve'\nRETURN p", "SET", 2, 3],
    ["MATCH (p) DELETE p", "DELETE", 1, 11],
    ["MATCH (p) DETACH DELETE p", "DETACH", 1, 11],
    ["MATCH (p) REMOVE p.name RETURN p", "REMOVE", 1, 11],
    ["CALL db.labels()", "CALL", 1, 1],
    ["LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", "LOAD", 1, 1],
    ["MATCH (p) FOREACH (x IN [1] | SET p.n = x) RETURN p", "FOREACH", 1, 11],
    ["MATCH (p) UNWIND [1] AS x RETURN x", "UNWIND", 1, 11],
    ["MATCH (p) WHERE p.name =~ '(a+)+$' RETURN p", "=~", 1, 24],
  ];
  for (const [query, token, line, column] of WRITES) {
    test(`${token} → 422 naming the token at ${line}:${column}, nothing written`, async () => {
      const res = await recall(t, a.key, { agent_id: AGENT, query, strategy: "CYPHER" });
      expect(res.status, show(res)).toBe(422);
      expect(res.body.type).toEndWith("/errors/validation-failed");
      expect(res.body.errors[0]).toMatchObject({ path: "/query", token, line, column });
      expect(res.body.detail).toContain(`line ${line}, column ${column}`);
    });
  }

  test("syntax errors and missing parameters are 422s with positions, also before a stream opens", async () => {
    const syntax = await recall(t, a.key, {
      agent_id: AGENT,
      query: "MATCH (a RETURN a",
      strategy: "CYPHER",
    });
    expect(syntax.status).toBe(422);
    expect(syntax.body.errors[0]).toMatchObject({ token: "RETURN", line: 1, column: 10 });
    const param = await recall(t, a.key, { agent_id: AGENT, query: TWO_HOPS, strategy: "CYPHER" });
    expect(param.body.errors[0]).toMatchObject({ token: "$name", line: 1, column: 24 });
    const stream = await t.request("POST", "/v1/memories/recall/stream", {
      key: a.key,
      body: { agent_id: AGENT, query: "MATCH (n) DELETE n", strategy: "CYPHER" },
    });
    expect(stream.status).toBe(422);
    const names = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) =>
        tx<{ name: string }[]>`SELECT name FROM memos WHERE agent_id = ${AGENT} ORDER BY name`,
    );
    expect(names.map((n) => n.name)).toEqual([
      "Acme Corp",
      "Alice",
      "Berlin",
      "Bob",
      "Carol",
      "Paris",
      "Postgres",
    ]);
  });

  test("no query text or params produce a 5xx", async () => {
    const soup = fc
      .array(
        fc.constantFrom(
          "MATCH",
          "(n)",
          "(n:PERSON)",
          "-[r*1..2]->",
          "<-[:X]-",
          "--",
          "WHERE",
          "n.name",
          "=",
          "$p",
          "'x'",
          "RETURN",
          "n",
          "count(*)",
          "DISTINCT",
          "ORDER BY",
          "LIMIT",
          "5",
          "SET",
          ",",
          ")",
          "\u2028",
          "🙂",
        ),
        { maxLength: 14 },
      )
      .map((t) => t.join(" "));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(soup, fc.string({ maxLength: 60 })),
        fc.option(
          fc.dictionary(fc.constantFrom("p", "q", "__proto__"), fc.jsonValue({ maxDepth: 2 })),
        ),
        async (query, params) => {
          const res = await recall(t, a.key, {
            agent_id: AGENT,
            query,
            strategy: "CYPHER",
            ...(params ? { params } : {}),
          });
          expect(res.status < 500, `${JSON.stringify(query)} ${show(res)}`).toBe(true);
        },
      ),
      { numRuns: 80, seed: 1206 },
    );
  }, 30_000);
});
