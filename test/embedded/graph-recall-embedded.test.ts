// Graph recall on PGlite (embedded mode, one connection): CYPHER's READ ONLY transaction, unnamed
// statements, bounded walks and 422s, and ASK, through HTTP exactly as on PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/app/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { ensureVectorIndex } from "../../src/data/queries/memories-vector-index";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/http/create-app";
import { createLogger } from "../../src/observability/log";
import type { Tenant, TestApp } from "../harness/app";
import { seedOrgChart, type OrgChart } from "../graph/cypher/org-chart";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-graph-"));
const AGENT = "agent-embedded-graph";
let deps: Deps;
let app: TestApp;
let a: Tenant;
let b: Tenant;
let g: OrgChart;

async function tenant(name: string): Promise<Tenant> {
  const orgId = await ensureOrg(deps.db, name);
  const created = await createKey(deps.db, systemActor(orgId), "test");
  return { orgId, keyId: created.key_id, key: created.key, name };
}

beforeAll(async () => {
  const config = loadConfig({}, { SVC_DATA_DIR: dataDir, LOG_LEVEL: "error", RATE_LIMIT_ENABLED: false, EMBEDDING_DIMENSIONS: 128 } as Partial<Config>);
  deps = await openDeps(config, { log: createLogger("error"), applicationName: "svc-embedded-graph" });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  const handle = handleRequest(createApp(deps), deps);
  const request = async (method: string, url: string, options: { key?: string | null; body?: unknown } = {}) => {
    const response = await handle(new Request(`http://localhost${url}`, {
      method, headers: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...(options.body === undefined ? {} : { "content-type": "application/json" }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }));
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
  };
  app = { deps, config, request } as unknown as TestApp;
  a = await tenant("embedded-graph-a");
  b = await tenant("embedded-graph-b");
  g = await seedOrgChart(app, a, AGENT);
}, 60_000);

afterAll(async () => {
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

const recall = (key: string, body: Record<string, unknown>) => app.request("POST", "/v1/memories/recall", { key, body: { agent_id: AGENT, ...body } });

test("CYPHER: a two-hop pattern with parameters, a bounded walk, another tenant, and refused writes", async () => {
  const res = await recall(a.key, { strategy: "CYPHER", query: "MATCH (p:PERSON {name: $name})-[:REPORTS_TO]->(m)-[:REPORTS_TO]->(top) RETURN m.name AS manager, top.name AS top", params: { name: "Alice" } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.graph.table.rows).toEqual([{ manager: "Bob", top: "Carol" }]);
  expect(res.body.results.map((r: { memory_id: string }) => r.memory_id)).toEqual([g.memories[1]!, g.memories[4]!]);
  const walk = await recall(a.key, { strategy: "CYPHER", query: "MATCH p = (x)-[:REPORTS_TO*1..3]->(c {name: 'Carol'}) RETURN x.name AS name, length(p) AS hops ORDER BY hops" });
  expect(walk.body.graph.table.rows).toEqual([{ name: "Bob", hops: 1 }, { name: "Alice", hops: 2 }]);
  const other = await recall(b.key, { strategy: "CYPHER", query: "MATCH (n) RETURN n.name" });
  expect(other.body.graph.table.rows).toEqual([]);
  for (const [query, token] of [["MATCH (n) SET n.name = 'x' RETURN n", "SET"], ["CREATE (n:PERSON)", "CREATE"], ["MATCH (n) DETACH DELETE n", "DETACH"]]) {
    const refused = await recall(a.key, { strategy: "CYPHER", query });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors[0].token).toBe(token);
  }
}, 30_000);
