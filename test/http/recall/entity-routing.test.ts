// AUTO's entity rule (routing/graph-rules.ts): without an LLM the recall transaction reads the
// agent's graph, and a question about an entity it knows adds ASK or GRAPH to AUTO's fusion, whose
// answer then leads. With the local and with a semantic embedder alike; the audit row names the
// strategy that leads.
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
  const [row] = await withTenant(
    app.deps.db,
    tenant.orgId,
    (tx) => tx<
      {
        detail: { strategy: string; requested_strategy: string; routing: string };
        target_ids: string[];
      }[]
    >`
    SELECT detail, target_ids FROM audit_pending WHERE operation = 'recall' ORDER BY id DESC LIMIT 1`,
  );
  return row!;
}

async function auto(app: TestApp, tenant: Tenant, query: string) {
  const res = await recall(app, tenant.key, { agent_id: AGENT, query, top_k: 5 });
  expect(res.status, show(res)).toBe(200);
  expect(res.body.routing).toMatchObject({ requested: "AUTO", method: "rules" });
  const audit = await lastRecallAudit(app, tenant);
  expect(audit.detail).toMatchObject({
    strategy: res.body.strategy,
    requested_strategy: "AUTO",
    routing: "rules",
  });
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

  test("a relation question about a memo adds ASK, a question joining two adds GRAPH, any other neither", async () => {
    const asked = await auto(t, a, GRAPH_QUESTION);
    expect(asked.body.strategy).toBe("ASK");
    expect(asked.body.fusion.strategies).toEqual(["LEXICAL", "ASK", "VECTOR"]);
    expect(asked.body.results[0].retrievers).toContain("ASK");
    expect(asked.body.graph.answer.text).toBe("Bob — Alice reports to Bob.");
    expect(asked.body.routing.reason).toContain("REPORTS_TO");
    const path = await auto(t, a, "How is Alice connected to Carol?");
    expect(path.body.strategy).toBe("GRAPH");
    expect(path.body.fusion.strategies).toContain("GRAPH");
    const plain = await auto(t, a, PLAIN_QUESTION);
    expect(plain.body.fusion.strategies).toEqual(["LEXICAL", "VECTOR"]);
    expect(plain.body.graph).toBeUndefined();
  });
});

describe("semantic embedder: the same, with the query embedded once", () => {
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

  const embeddedQueries = (query: string) =>
    server.requests.filter((r) => r.input.includes(query)).length;

  test("a question the graph answers is led by ASK; another is fused from LEXICAL and VECTOR at equal weight", async () => {
    const asked = await auto(t, a, GRAPH_QUESTION);
    expect(asked.body.strategy).toBe("ASK");
    expect(embeddedQueries(GRAPH_QUESTION)).toBe(1);
    const plain = await auto(t, a, PLAIN_QUESTION);
    expect(plain.body.routing.reason).toContain("VECTOR ×1 (query embedding)");
    expect(embeddedQueries(PLAIN_QUESTION)).toBe(1);
  });
});
