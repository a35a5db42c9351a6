// Graph recall on PGlite (embedded mode, one connection): CYPHER's READ ONLY transaction, unnamed
// statements, bounded walks and 422s, and ASK, through HTTP exactly as on PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Tenant, TestApp } from "../harness/app";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { seedOrgChart, type OrgChart } from "../graph/cypher/org-chart";

const AGENT = "agent-embedded-graph";
let e: EmbeddedApp;
let app: TestApp;
let a: Tenant;
let b: Tenant;
let g: OrgChart;

beforeAll(async () => {
  e = await embeddedApp("graph");
  app = e.app;
  a = await e.tenant("embedded-graph-a");
  b = await e.tenant("embedded-graph-b");
  g = await seedOrgChart(app, a, AGENT);
}, 60_000);

afterAll(() => e.close());

const recall = (key: string, body: Record<string, unknown>) =>
  app.request("POST", "/v1/memories/recall", { key, body: { agent_id: AGENT, ...body } });

test("CYPHER: a two-hop pattern with parameters, a bounded walk, another tenant, and refused writes", async () => {
  const res = await recall(a.key, {
    strategy: "CYPHER",
    query:
      "MATCH (p:PERSON {name: $name})-[:REPORTS_TO]->(m)-[:REPORTS_TO]->(top) RETURN m.name AS manager, top.name AS top",
    params: { name: "Alice" },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.graph.table.rows).toEqual([{ manager: "Bob", top: "Carol" }]);
  expect(res.body.results.map((r: { memory_id: string }) => r.memory_id)).toEqual([
    g.memories[1]!,
    g.memories[4]!,
  ]);
  const walk = await recall(a.key, {
    strategy: "CYPHER",
    query:
      "MATCH p = (x)-[:REPORTS_TO*1..3]->(c {name: 'Carol'}) RETURN x.name AS name, length(p) AS hops ORDER BY hops",
  });
  expect(walk.body.graph.table.rows).toEqual([
    { name: "Bob", hops: 1 },
    { name: "Alice", hops: 2 },
  ]);
  const other = await recall(b.key, { strategy: "CYPHER", query: "MATCH (n) RETURN n.name" });
  expect(other.body.graph.table.rows).toEqual([]);
  for (const [query, token] of [
    ["MATCH (n) SET n.name = 'x' RETURN n", "SET"],
    ["CREATE (n:PERSON)", "CREATE"],
    ["MATCH (n) DETACH DELETE n", "DETACH"],
  ]) {
    const refused = await recall(a.key, { strategy: "CYPHER", query });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors[0].token).toBe(token);
  }
}, 30_000);
