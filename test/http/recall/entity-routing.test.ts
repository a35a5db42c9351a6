// AUTO's entity rule (routing/graph-rules.ts) on both of its paths. With the local embedder the rules'
// choice needs no query embedding, so the graph read goes into the recall transaction, sent with the
// chosen strategy's first statement; with a semantic embedder it is read first, in a transaction of its
// own, so a question the graph answers spends no embedding call. Either way the audit row names the
// strategy that ran.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { startFakeEmbeddingServer } from "../../harness/fake-embedding-server";
import { genB } from "../../harness/reembed-scenario";
import { seedOrgChart } from "../../graph/cypher/org-chart";
import { recall } from "./seed";

const AGENT = "agent-entity-routing";
const GRAPH_QUESTION = "Who is Alice's manager?";
const PLAIN_QUESTION = "how does the platform team usually deploy";

async function lastRecallAudit(app: TestApp, tenant: Tenant) {
  const [row] = await withTenant(app.deps.db, tenant.orgId, (tx) => tx<{ detail: { strategy: string; requested_strategy: string; routing: string }; target_ids: string[] }[]>`
    SELECT detail, target_ids FROM audit_pending WHERE operation = 'recall' ORDER BY id DESC LIMIT 1`);
  return row!;
}

async function auto(app: TestApp, tenant: Tenant, query: string) {
  const res = await recall(app, tenant.key, { agent_id: AGENT, query, top_k: 5 });
  expect(res.status, show(res)).toBe(200);
  expect(res.body.routing).toMatchObject({ requested: "AUTO", method: "rules" });
  const audit = await lastRecallAudit(app, tenant);
  expect(audit.detail).toMatchObject({ strategy: res.body.strategy, requested_strategy: "AUTO", routing: "rules" });
  expect(audit.target_ids).toEqual(res.body.results.map((r: { memory_id: string }) => r.memory_id));
  return res;
}

describe("local embedder: the graph read joins the recall transaction", () => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp();
    a = await t.tenant("entity-routing-local");
    await seedOrgChart(t, a, AGENT);
  });
  afterAll(() => t.close());

  test("a relation question about a memo goes to ASK, a question joining two to GRAPH, any other to LEXICAL", async () => {
    const asked = await auto(t, a, GRAPH_QUESTION);
    expect(asked.body.strategy).toBe("ASK");
    expect(asked.body.graph.answer.text).toBe("Bob — Alice reports to Bob.");
    expect(asked.body.routing.reason).toContain("REPORTS_TO");
    expect((await auto(t, a, "How is Alice connected to Carol?")).body.strategy).toBe("GRAPH");
    const plain = await auto(t, a, PLAIN_QUESTION);
    expect(plain.body.strategy).toBe("LEXICAL");
    expect(plain.body.routing.reason).toContain("local embedder has no semantics");
  });
});

describe("semantic embedder: the graph is read before the query is embedded", () => {
  const server = startFakeEmbeddingServer({ dims: 48 });
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(genB(server.baseUrl));
    a = await t.tenant("entity-routing-semantic");
    await seedOrgChart(t, a, AGENT);
  });
  afterAll(async () => {
    await t.close();
    server.stop();
  });

  const embeddedQueries = (query: string) => server.requests.filter((r) => r.input.includes(query)).length;

  test("a question the graph answers goes to ASK without an embedding call; another goes to VECTOR, embedded", async () => {
    const asked = await auto(t, a, GRAPH_QUESTION);
    expect(asked.body.strategy).toBe("ASK");
    expect(embeddedQueries(GRAPH_QUESTION)).toBe(0);
    const plain = await auto(t, a, PLAIN_QUESTION);
    expect(plain.body.strategy).toBe("VECTOR");
    expect(embeddedQueries(PLAIN_QUESTION)).toBe(1);
  });
});
