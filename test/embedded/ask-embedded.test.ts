// ASK on PGlite (embedded mode, one connection), through HTTP exactly as on PostgreSQL: the offline
// answer with its citation, "I don't know", another tenant, AUTO's entity rule; then with an LLM
// (fake OpenAI-compatible server): the translated CYPHER runs read-only on PGlite and a mis-cited
// claim is dropped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Config } from "../../src/config/schema";
import type { Tenant } from "../harness/app";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { seedOrgChart, type OrgChart } from "../graph/cypher/org-chart";
import { startFakeLlm, type FakeLlm } from "../http/recall/fake-llm";

const AGENT = "agent-embedded-ask";

type Embedded = EmbeddedApp;
const openEmbedded = (overrides: Partial<Config>) => embeddedApp("ask", overrides);

const recall = (e: Embedded, key: string, body: Record<string, unknown>) =>
  e.app.request("POST", "/v1/memories/recall", { key, body: { agent_id: AGENT, ...body } });

describe("offline", () => {
  let e: Embedded;
  let a: Tenant;
  let b: Tenant;
  let g: OrgChart;
  beforeAll(async () => {
    e = await openEmbedded({});
    a = await e.tenant("embedded-ask-a");
    b = await e.tenant("embedded-ask-b");
    g = await seedOrgChart(e.app, a, AGENT);
  }, 60_000);
  afterAll(() => e.close());

  test("who is Alice's manager, who is Carol's, another tenant, and AUTO", async () => {
    const res = await recall(e, a.key, { strategy: "ASK", query: "Who is Alice's manager?" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.graph.answer).toMatchObject({
      known: true,
      method: "local",
      text: "Bob — Alice reports to Bob.",
    });
    expect(res.body.graph.answer.citations).toEqual([
      {
        memory_id: g.memories[0]!,
        version: 1,
        edge_id: g.edge.a_b!,
        evidence: "Alice reports to Bob",
      },
    ]);
    expect(res.body.results[0].memory_id).toBe(g.memories[0]!);
    const unknown = await recall(e, a.key, { strategy: "ASK", query: "Who is Carol's manager?" });
    expect(unknown.body.graph.answer).toMatchObject({
      known: false,
      citations: [],
      text: "I don't know: nothing in this agent's memory answers the question.",
    });
    const other = await recall(e, b.key, { strategy: "ASK", query: "Who is Alice's manager?" });
    expect(other.status, other.text).toBe(200);
    expect(other.body.graph.answer.known).toBe(false);
    expect(other.body.results).toEqual([]);
    const auto = await recall(e, a.key, { query: "Who is Alice's manager?" });
    expect(auto.body.strategy, auto.text).toBe("ASK");
    expect(auto.body.routing.method).toBe("rules");
  }, 30_000);
});

describe("with an LLM", () => {
  let e: Embedded;
  let fake: FakeLlm;
  let a: Tenant;
  let g: OrgChart;
  const VALID =
    "MATCH (p:PERSON)-[r:REPORTS_TO]->(m:PERSON) WHERE toLower(p.name) = 'alice' RETURN m.name AS manager, r.fact AS fact";
  beforeAll(async () => {
    fake = startFakeLlm((body) => {
      const system: string =
        body.messages.find((m: { role: string }) => m.role === "system")?.content ?? "";
      const prompt: string = body.messages.at(-1).content;
      if (system.includes("translate")) return { content: JSON.stringify({ cypher: VALID }) };
      const cited = prompt.match(/(F\d+): Alice reports to Bob/)?.[1];
      return {
        content: JSON.stringify({
          claims: [
            { text: "Bob manages Alice.", citations: [cited] },
            { text: "Alice earns a lot.", citations: ["F77"] },
          ],
        }),
      };
    });
    e = await openEmbedded({
      LLM_API_KEY: "sk-embedded-ask",
      LLM_BASE_URL: fake.url,
      LLM_TIMEOUT_MS: 2000,
    } as Partial<Config>);
    a = await e.tenant("embedded-ask-llm");
    g = await seedOrgChart(e.app, a, AGENT);
  }, 60_000);
  afterAll(async () => {
    await e.close();
    fake.stop();
  });

  test("the translated CYPHER runs read-only on PGlite; the mis-cited claim is dropped", async () => {
    const res = await recall(e, a.key, { strategy: "ASK", query: "Who is Alice's manager?" });
    expect(res.status, res.text).toBe(200);
    const answer = res.body.graph.answer;
    expect(answer).toMatchObject({
      known: true,
      method: "cypher",
      text: "Bob manages Alice.",
      cypher: VALID,
    });
    expect(answer.citations).toEqual([
      {
        memory_id: g.memories[0]!,
        version: 1,
        edge_id: g.edge.a_b!,
        evidence: "Alice reports to Bob",
      },
    ]);
    expect(answer.dropped_claims).toEqual([
      { text: "Alice earns a lot.", reason: "cites F77, which was not retrieved" },
    ]);
    expect(fake.requests.length).toBe(2);
  }, 30_000);
});
