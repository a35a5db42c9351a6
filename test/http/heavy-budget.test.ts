// Each tenant's budget of heavy database time (issue 23), in both database modes: a tenant alone on
// the service is not metered; one whose heavy query used up its share while another tenant was
// active gets 503 tenant-busy for its next heavy queries (CYPHER and GRAPH alike), with Retry-After
// saying when it has paid the time back, while its light requests, its export and another tenant's
// heavy queries go on. Outcomes only: the share is so small that any
// query leaves a debt of minutes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { testApp, type Tenant, type TestApp } from "../harness/app";
import { seedGraph } from "../graph/seed-graph";

/** 0.1 ms of heavy time a second, 0.5 ms saved up: a query of a millisecond owes 5 s. */
const budget = { TENANT_HEAVY_CPU_SHARE: 0.0001, DATABASE_CPU_CORES: 1, TENANT_DB_WAIT_MS: 1000 };
/** Unanchored, so it has rows to count on any machine: 7^5 of them. */
const PRODUCT = "MATCH (a),(b),(c),(d),(e) RETURN count(*) AS n";

let pg: TestApp;
let embedded: EmbeddedApp;

beforeAll(async () => {
  pg = await testApp(budget);
  embedded = await embeddedApp("heavy-budget", budget);
}, 240_000);

afterAll(async () => {
  await Promise.all([pg?.close(), embedded?.close()]);
});

async function seed(app: TestApp, tenant: Tenant): Promise<void> {
  const memos = Array.from({ length: 7 }, (_, i) => ({
    key: `m${i}`,
    type: "PERSON",
    name: `Person ${i}`,
  }));
  await seedGraph(app.deps.db, tenant.orgId, "graph", memos, []);
  const stored = await app.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "graph", content: "Person 1 keeps the weekly report" },
  });
  expect(stored.status, stored.text).toBe(201);
}

const recall = (app: TestApp, tenant: Tenant, strategy: string, query: string) =>
  app.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: { agent_id: "graph", query, strategy },
  });

async function heavyTimeIsBudgeted(app: TestApp, a: Tenant, b: Tenant): Promise<void> {
  await seed(app, a);
  // Alone on the service, A may use the whole database: nothing is metered.
  for (const strategy of ["CYPHER", "CYPHER"])
    expect((await recall(app, a, strategy, PRODUCT)).status).toBe(200);
  await seed(app, b); // B is active now: A's heavy time is charged from here on
  await recall(app, b, "LEXICAL", "weekly report");
  const first = await recall(app, a, "CYPHER", PRODUCT);
  expect(first.status, first.text).toBe(200);

  for (const [strategy, query] of [
    ["CYPHER", PRODUCT],
    ["GRAPH", "Person 1"],
  ] as const) {
    await recall(app, b, "LEXICAL", "weekly report"); // B stays active, whatever the clock says
    const refused = await recall(app, a, strategy, query);
    expect(refused.status, `${strategy}: ${refused.text}`).toBe(503);
    expect(refused.body.type).toEndWith("/errors/tenant-busy");
    expect(refused.body.detail).toContain("TENANT_HEAVY_CPU_SHARE");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(1);
  }

  // A's light work and its export are not heavy queries; B has a budget of its own.
  const lexical = await recall(app, a, "LEXICAL", "weekly report");
  expect(lexical.status, lexical.text).toBe(200);
  const exported = await app.request("GET", "/v1/export", { key: a.key });
  expect(exported.status, exported.text.slice(0, 300)).toBe(200);
  const other = await recall(app, b, "CYPHER", PRODUCT);
  expect(other.status, other.text).toBe(200);
}

describe("heavy database time per tenant", () => {
  test("PostgreSQL: A alone is not metered; beside B, past its share it is refused", async () => {
    await heavyTimeIsBudgeted(pg, await pg.tenant("heavy-a"), await pg.tenant("heavy-b"));
  }, 120_000);

  test("embedded: the same on the one connection", async () => {
    const [a, b] = [await embedded.tenant("heavy-a"), await embedded.tenant("heavy-b")];
    await heavyTimeIsBudgeted(embedded.app, a, b);
  }, 120_000);
});
