// ASK through HTTP. Offline: "who is X's manager" answered from the org chart with a citation to
// the grounding memory version, "I don't know" when the graph has no answer, as_of, AUTO's entity
// rule, another tenant, the audit row and the stream. With an LLM (fake OpenAI-compatible server):
// the NL→CYPHER step (retried once with the parser's error), mis-cited and uncited claims dropped,
// an outage answered offline, and a spent budget refused with 429 before the provider is called.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { seedOrgChart, type OrgChart } from "../../graph/cypher/org-chart";
import { seedGraph } from "../../graph/seed-graph";
import { startFakeLlm, type FakeLlm } from "./fake-llm";
import { idsOf, recall, seed } from "./seed";

const AGENT = "agent-ask-http";
let t: TestApp;
let a: Tenant;
let b: Tenant;
let g: OrgChart;

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("ask-http-a");
  b = await t.tenant("ask-http-b");
  g = await seedOrgChart(t, a, AGENT);
});
afterAll(() => t.close());

const ask = (app: TestApp, key: string, query: string, extra: Record<string, unknown> = {}) =>
  recall(app, key, { agent_id: AGENT, query, strategy: "ASK", ...extra });

describe("offline", () => {
  test("who is Alice's manager: Bob, cited to the memory version that grounds the fact", async () => {
    const res = await ask(t, a.key, "Who is Alice's manager?");
    expect(res.status, show(res)).toBe(200);
    expect(res.body.strategy).toBe("ASK");
    const answer = res.body.graph.answer;
    expect(answer).toMatchObject({
      known: true,
      method: "local",
      text: "Bob — Alice reports to Bob.",
    });
    expect(answer.confidence).toBeGreaterThanOrEqual(t.config.ASK_MIN_CONFIDENCE);
    expect(answer.citations).toEqual([
      {
        memory_id: g.memories[0]!,
        version: 1,
        edge_id: g.edge.a_b!,
        evidence: "Alice reports to Bob",
      },
    ]);
    expect(idsOf(res)[0]).toBe(g.memories[0]!);
    expect(res.body.results[0].graph.edge_ids).toEqual([g.edge.a_b!]);
    expect(res.body.graph.facts[0].edge_id).toBe(g.edge.a_b!);
    expect(res.body.note).toContain("REPORTS_TO");
  });

  test("the direction of the relation matters: Bob's manager is Carol, and Bob's report is Alice", async () => {
    const manager = await ask(t, a.key, "who is bob's manager");
    expect(manager.body.graph.answer).toMatchObject({
      known: true,
      text: "Carol — Bob reports to Carol.",
    });
    expect(
      manager.body.graph.answer.citations.map((c: { memory_id: string }) => c.memory_id),
    ).toEqual([g.memories[1]!]);
    const reports = await ask(t, a.key, "Who reports to Bob?");
    expect(reports.body.graph.answer).toMatchObject({
      known: true,
      text: "Alice — Alice reports to Bob.",
    });
    const does = await ask(t, a.key, "Does Alice report to Carol?");
    expect(does.body.graph.answer.known, show(does)).toBe(false);
    const yes = await ask(t, a.key, "Does Bob report to Carol?");
    expect(yes.body.graph.answer.text).toBe("Yes — Bob reports to Carol.");
  });

  test("where does Alice live: the current fact; as_of 2021 reads the superseded one with its window", async () => {
    const now = await ask(t, a.key, "Where does Alice live?");
    expect(now.body.graph.answer).toMatchObject({
      known: true,
      text: "Berlin — Alice lives in Berlin (since 2023-06-01).",
    });
    expect(now.body.graph.answer.citations[0].memory_id).toBe(g.memories[2]!);
    const then = await ask(t, a.key, "Where does Alice live?", { as_of: "2021-03-01T00:00:00Z" });
    expect(then.status, show(then)).toBe(200);
    expect(then.body.graph.answer).toMatchObject({
      known: true,
      text: "Paris — Alice lived in Paris (2020-01-01 to 2023-06-01).",
    });
  });

  test("how many and when: a count of the answers, the start of the fact's validity", async () => {
    const count = await ask(t, a.key, "How many people report to Bob?");
    expect(count.body.graph.answer).toMatchObject({
      known: true,
      text: "1 — Alice reports to Bob.",
    });
    const when = await ask(t, a.key, "When did Alice move to Berlin?");
    expect(when.body.graph.answer).toMatchObject({
      known: true,
      text: "Since 2023-06-01 — Alice lives in Berlin (since 2023-06-01).",
    });
    expect(when.body.graph.answer.citations.map((c: { edge_id: string }) => c.edge_id)).toEqual([
      g.edge.a_berlin!,
    ]);
  });

  test("no answer in the graph: I don't know, no citations, and the supporting memories", async () => {
    const res = await ask(t, a.key, "Who is Carol's manager?");
    expect(res.status, show(res)).toBe(200);
    const answer = res.body.graph.answer;
    expect(answer).toMatchObject({
      known: false,
      method: "local",
      citations: [],
      text: "I don't know: nothing in this agent's memory answers the question.",
    });
    expect(answer.confidence).toBeLessThan(t.config.ASK_MIN_CONFIDENCE);
    expect(res.body.graph.notice).toContain("ASK_MIN_CONFIDENCE");
    // The facts around Carol are still returned as support (Bob → Carol, Carol → Acme).
    expect(idsOf(res).sort()).toEqual([g.memories[1]!, g.memories[4]!].sort());
    const nobody = await ask(t, a.key, "Who is Zed's manager?");
    expect(nobody.body.graph.answer.known).toBe(false);
    expect(nobody.body.graph.notice).toContain("no memo of this agent is named");
  });

  test("another tenant with the same agent id: no graph, I don't know, nothing returned", async () => {
    const res = await ask(t, b.key, "Who is Alice's manager?");
    expect(res.status, show(res)).toBe(200);
    expect(res.body.graph.answer).toMatchObject({ known: false, citations: [] });
    expect(res.body.results).toEqual([]);
    expect(res.body.graph.facts).toEqual([]);
    expect(res.body.graph.notice).toContain("distill has not run");
  });

  test("audited like every recall, and the stream's summary carries the answer", async () => {
    const res = await ask(t, a.key, "Who is Alice's manager?");
    const [audit] = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) => tx<{ detail: { strategy: string; result_count: number }; target_ids: string[] }[]>`
      SELECT detail, target_ids FROM audit_pending WHERE operation = 'recall' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit!.detail).toMatchObject({ strategy: "ASK", result_count: res.body.results.length });
    expect(audit!.target_ids).toEqual(idsOf(res));
    const stream = await t.request("POST", "/v1/memories/recall/stream", {
      key: a.key,
      body: { agent_id: AGENT, query: "Who is Alice's manager?", strategy: "ASK" },
    });
    expect(stream.status).toBe(200);
    const summary = stream.text.split("\n\n").find((f) => f.startsWith("event: summary"))!;
    expect(JSON.parse(summary.split("data: ")[1]!).graph.answer.text).toBe(
      "Bob — Alice reports to Bob.",
    );
  });

  test("AUTO: a relation question about a memo of the graph goes to ASK, a question joining two memos to GRAPH", async () => {
    const asked = await recall(t, a.key, { agent_id: AGENT, query: "Who is Alice's manager?" });
    expect(asked.body.strategy, show(asked)).toBe("ASK");
    expect(asked.body.routing).toMatchObject({ requested: "AUTO", method: "rules" });
    expect(asked.body.routing.reason).toContain("REPORTS_TO");
    const path = await recall(t, a.key, {
      agent_id: AGENT,
      query: "How is Alice connected to Carol?",
    });
    expect(path.body.strategy, show(path)).toBe("GRAPH");
    // The same question for an agent without a graph keeps the memory rules.
    const plain = await recall(t, b.key, { agent_id: AGENT, query: "Who is Alice's manager?" });
    expect(plain.body.strategy).toBe("LEXICAL");
  });

  test("AUTO: the graph's answer leads the fusion and LEXICAL's results fill the rest of top_k; pinned ASK answers alone", async () => {
    const [note] = await seed(t, a, AGENT, [
      { content: "Alice's manager changed the on-call rota again this week" },
    ]);
    const pinned = await ask(t, a.key, "Who is Alice's manager?", { top_k: 5 });
    const auto = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Who is Alice's manager?",
      top_k: 5,
    });
    expect(auto.body.strategy, show(auto)).toBe("ASK");
    const answer = idsOf(pinned);
    expect(answer.length).toBeGreaterThan(0);
    expect(answer.length).toBeLessThan(5); // the premise: the graph alone leaves top_k unfilled
    expect(idsOf(auto).slice(0, answer.length)).toEqual(answer);
    expect(idsOf(auto)).toContain(note!);
    expect(new Set(idsOf(auto)).size).toBe(idsOf(auto).length);
    expect(auto.body.fusion.strategies).toEqual(["LEXICAL", "ASK", "VECTOR"]);
    expect(
      auto.body.results.find((r: { memory_id: string }) => r.memory_id === note).retrievers,
    ).toContain("LEXICAL");
    expect(idsOf(pinned)).not.toContain(note!);
  });
});

test("RETRIEVAL_REDACTION_ENABLED masks the answer and its evidence like memory content", async () => {
  const r = await testApp({ RETRIEVAL_REDACTION_ENABLED: true });
  try {
    const tenant = await r.tenant("ask-redaction");
    const [memory] = await seed(r, tenant, AGENT, [
      { content: "Dana reports to boss@example.com since May." },
    ]);
    await seedGraph(
      r.deps.db,
      tenant.orgId,
      AGENT,
      [
        { key: "dana", type: "PERSON", name: "Dana", sources: [memory!] },
        { key: "boss", type: "PERSON", name: "boss@example.com" },
      ],
      [
        {
          key: "d_b",
          from: "dana",
          rel: "REPORTS_TO",
          to: "boss",
          fact: "Dana reports to boss@example.com",
          sources: [memory!],
        },
      ],
    );
    const res = await ask(r, tenant.key, "Who is Dana's manager?");
    expect(res.status, show(res)).toBe(200);
    expect(res.body.graph.answer.text).toBe("[REDACTED:email] — Dana reports to [REDACTED:email].");
    expect(res.body.graph.answer.citations[0].evidence).toBe("Dana reports to [REDACTED:email]");
    expect(res.text).not.toContain("boss@example.com");
    expect(res.body.redactions).toBeGreaterThanOrEqual(4);
  } finally {
    await r.close();
  }
});

describe("with an LLM", () => {
  let fake: FakeLlm;
  let llm: TestApp;
  let tenant: Tenant;
  let chart: OrgChart;
  let translate: (prompt: string) => string = () => JSON.stringify({ cypher: null });
  let answer: (prompt: string) => Response | string = () => JSON.stringify({ claims: [] });
  const VALID =
    "MATCH (p:PERSON)-[r:REPORTS_TO]->(m:PERSON) WHERE toLower(p.name) = 'alice' RETURN m.name AS manager, r.fact AS fact";

  beforeAll(async () => {
    fake = startFakeLlm((body) => {
      const system: string =
        body.messages.find((m: { role: string }) => m.role === "system")?.content ?? "";
      const prompt: string = body.messages.at(-1).content;
      if (system.includes("translate")) return { content: translate(prompt) };
      if (system.includes("You route"))
        return {
          content: JSON.stringify({
            strategy: "ASK",
            reason: "a direct question about a relation",
          }),
        };
      const reply = answer(prompt);
      return reply instanceof Response ? reply : { content: reply };
    });
    llm = await testApp({
      LLM_API_KEY: "sk-test-ask",
      LLM_BASE_URL: fake.url,
      LLM_MODEL: "ask-model",
      LLM_TIMEOUT_MS: 2000,
    });
    tenant = await llm.tenant("ask-llm");
    chart = await seedOrgChart(llm, tenant, AGENT);
  });
  afterAll(async () => {
    await llm.close();
    fake.stop();
  });

  /** The context id the fake is shown for a fact sentence. */
  const idOf = (prompt: string, fact: string) => prompt.match(new RegExp(`(F\\d+): ${fact}`))?.[1];

  test("a translated query, checked claims: the mis-cited and the uncited claim are dropped", async () => {
    translate = () => JSON.stringify({ cypher: VALID });
    answer = (prompt) =>
      JSON.stringify({
        claims: [
          { text: "Alice's manager is Bob.", citations: [idOf(prompt, "Alice reports to Bob")] },
          { text: "Bob earns a million.", citations: ["F99"] },
          { text: "Carol is happy.", citations: [] },
        ],
      });
    const before = fake.requests.length;
    const res = await ask(llm, tenant.key, "Who is Alice's manager?");
    expect(res.status, show(res)).toBe(200);
    const got = res.body.graph.answer;
    expect(got.text).toBe("Alice's manager is Bob.");
    expect(got.known).toBe(true);
    expect(got.method).toBe("cypher");
    expect(got.cypher).toBe(VALID);
    expect(got.citations).toEqual([
      {
        memory_id: chart.memories[0]!,
        version: 1,
        edge_id: chart.edge.a_b!,
        evidence: "Alice reports to Bob",
      },
    ]);
    expect(got.dropped_claims).toEqual([
      { text: "Bob earns a million.", reason: "cites F99, which was not retrieved" },
      { text: "Carol is happy.", reason: "cites nothing" },
    ]);
    expect(got.confidence).toBeCloseTo(0.3, 5);
    expect(idsOf(res)[0]).toBe(chart.memories[0]!);
    // One translation and one answer; the answer's context shows validity windows.
    const sent = fake.requests.slice(before);
    expect(sent.length).toBe(2);
    expect(sent[1]!.body.messages.at(-1).content).toContain(
      "Alice lives in Berlin [Alice LIVES_IN Berlin; valid (since 2023-06-01)]",
    );
  });

  test("a rejected translation goes back once with the parser's error; a second rejection is skipped", async () => {
    const prompts: string[] = [];
    translate = (prompt) => {
      prompts.push(prompt);
      return JSON.stringify({
        cypher: prompts.length === 1 ? "MATCH (p) SET p.name = 'x' RETURN p" : VALID,
      });
    };
    answer = (prompt) =>
      JSON.stringify({
        claims: [{ text: "Bob.", citations: [idOf(prompt, "Alice reports to Bob")] }],
      });
    const res = await ask(llm, tenant.key, "Who is Alice's manager?");
    expect(res.status, show(res)).toBe(200);
    expect(prompts.length).toBe(2);
    expect(prompts[1]).toContain("was rejected");
    expect(prompts[1]).toContain("SET");
    expect(res.body.graph.answer.cypher).toBe(VALID);
    prompts.length = 0;
    translate = (prompt) => {
      prompts.push(prompt);
      return JSON.stringify({ cypher: "CREATE (n:PERSON)" });
    };
    const twice = await ask(llm, tenant.key, "Who is Alice's manager?");
    expect(prompts.length).toBe(2);
    expect(twice.body.graph.answer.cypher).toBeUndefined();
    expect(twice.body.graph.answer).toMatchObject({ known: true, method: "llm", text: "Bob." });
    expect(twice.body.note).toContain("rejected twice");
  });

  test("every claim dropped: I don't know from the LLM; an outage: the offline answer", async () => {
    translate = () => JSON.stringify({ cypher: null });
    answer = () =>
      JSON.stringify({ claims: [{ text: "Alice's manager is Dave.", citations: ["M42"] }] });
    const none = await ask(llm, tenant.key, "Who is Alice's manager?");
    expect(none.body.graph.answer).toMatchObject({
      known: false,
      method: "llm",
      citations: [],
      confidence: 0,
    });
    expect(none.body.graph.answer.dropped_claims).toEqual([
      { text: "Alice's manager is Dave.", reason: "cites M42, which was not retrieved" },
    ]);
    answer = () =>
      new Response(JSON.stringify({ error: { message: "overloaded" } }), {
        status: 503,
        headers: { "content-type": "application/json" },
      });
    const down = await ask(llm, tenant.key, "Who is Alice's manager?");
    expect(down.status, show(down)).toBe(200);
    expect(down.body.graph.answer).toMatchObject({
      known: true,
      method: "local",
      text: "Bob — Alice reports to Bob.",
    });
    expect(down.body.note).toContain("LLM was unavailable");
  });

  test("metered: the calls count as usage; a spent budget is a 429 before the provider is called", async () => {
    translate = () => JSON.stringify({ cypher: VALID });
    answer = (prompt) =>
      JSON.stringify({
        claims: [{ text: "Bob.", citations: [idOf(prompt, "Alice reports to Bob")] }],
      });
    const spender = await llm.tenant("ask-llm-budget");
    await seedOrgChart(llm, spender, AGENT);
    const usage = async () => (await llm.request("GET", "/v1/usage", { key: spender.key })).body;
    const before = await usage();
    expect((await ask(llm, spender.key, "Who is Alice's manager?")).status).toBe(200);
    const after = await usage();
    // The translation and the answer: two LLM calls, and their tokens (the fake reports 15 each).
    expect(after.today.llm_calls - before.today.llm_calls).toBe(2);
    expect(after.today.tokens - before.today.tokens).toBe(30);
    const put = await llm.request("PUT", "/v1/tenants/me/budgets", {
      key: spender.key,
      body: { daily_tokens: 1 },
    });
    expect(put.status, show(put)).toBe(200);
    const calls = fake.requests.length;
    const refused = await ask(llm, spender.key, "Who is Alice's manager?");
    expect(refused.status, show(refused)).toBe(429);
    expect(refused.body.type).toEndWith("/errors/budget-exceeded");
    expect(fake.requests.length).toBe(calls);
  });

  test("AUTO: the LLM router's menu offers ASK, and its choice joins the fusion and leads", async () => {
    translate = () => JSON.stringify({ cypher: null });
    answer = (prompt) =>
      JSON.stringify({
        claims: [{ text: "Bob.", citations: [idOf(prompt, "Alice reports to Bob")] }],
      });
    const before = fake.requests.length;
    const res = await recall(llm, tenant.key, {
      agent_id: AGENT,
      query: "Who is Alice's manager?",
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.strategy).toBe("ASK");
    expect(res.body.routing).toMatchObject({ requested: "AUTO", method: "llm" });
    expect(res.body.routing.reason).toStartWith(
      "a direct question about a relation; fused ASK ×2 (chosen by the LLM), LEXICAL ×1",
    );
    expect(res.body.graph.answer).toMatchObject({ known: true, method: "llm", text: "Bob." });
    const menu = fake.requests[before]!.body.messages.map(
      (m: { content: string }) => m.content,
    ).join("\n");
    expect(menu).toContain("- ASK: A direct question about the agent's knowledge graph");
  });

  test("another tenant's graph never reaches the LLM's context", async () => {
    translate = () => JSON.stringify({ cypher: VALID });
    answer = () => JSON.stringify({ claims: [] });
    const other = await llm.tenant("ask-llm-other");
    const before = fake.requests.length;
    const res = await ask(llm, other.key, "Who is Alice's manager?");
    expect(res.status, show(res)).toBe(200);
    expect(res.body.graph.answer).toMatchObject({ known: false, citations: [] });
    expect(res.body.results).toEqual([]);
    // The translation ran (and found nothing); with nothing retrieved the answer step is not
    // called.
    expect(fake.requests.length - before).toBe(1);
    expect(res.body.note).toContain("0 rows");
  });
});
