// AUTO's plan: the rules' retrievers and signals without an LLM, the LLM's choice as a weight
// (against a fake OpenAI-compatible server, and its fallbacks), and recall without VECTOR when the
// embedder is down.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { codeSign } from "../../../src/domain/recall/route-auto";
import { startFakeLlm, type FakeLlm } from "./fake-llm";
import { recall, seed } from "./seed";

const AGENT = "agent-routing";
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("routing");
  await seed(t, a, AGENT, [{ content: "The user drinks oat milk lattes." }]);
});
afterAll(() => t.close());

describe("rules (no LLM configured): AUTO fuses, the query's shape only adds retrievers and signals", () => {
  const cases: Array<[string, string[], string]> = [
    ["where is parseHttpRequest defined", ["LEXICAL", "VECTOR", "CODE"], "camelCase"],
    ["open src/app/main.go", ["LEXICAL", "VECTOR", "CODE"], "file name"],
    ["what did we ship yesterday", ["LEXICAL", "VECTOR"], 'event time in "yesterday" ranks higher'],
    ["decisions made before the launch", ["LEXICAL", "VECTOR"], "VECTOR ×0.3"],
    ["latte", ["LEXICAL", "VECTOR"], "LEXICAL ×1 (full text, always)"],
  ];
  for (const [query, fused, why] of cases) {
    test(`${JSON.stringify(query)} → ${fused.join(" + ")}`, async () => {
      const res = await recall(t, a.key, { agent_id: AGENT, query });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.fusion).toEqual({ strategies: fused, k: 5 });
      expect(res.body.routing.method).toBe("rules");
      expect(res.body.routing.requested).toBe("AUTO");
      expect(res.body.routing.reason).toContain(why);
    });
  }
  test("a time expression ranks, it does not filter: a memory outside the window is still found", async () => {
    const res = await recall(t, a.key, { agent_id: AGENT, query: "oat milk lattes yesterday" });
    expect(res.body.window.expression).toBe("yesterday");
    expect(res.body.results.map((r: { content: string }) => r.content)).toEqual([
      "The user drinks oat milk lattes.",
    ]);
  });
});

test("code signs: an identifier's shape is strong, a word that is also prose or a slash is weak", () => {
  expect(codeSign("where is parseHttpRequest defined")).toEqual({
    strength: "strong",
    sign: "camelCase identifier",
  });
  expect(codeSign("When did Melanie sign up for a pottery class?")).toEqual({
    strength: "weak",
    sign: "code keyword",
  });
  expect(codeSign("What musical artists/bands has Melanie seen?")).toEqual({
    strength: "weak",
    sign: "path-like word",
  });
  expect(codeSign("how does the user usually take their coffee")).toBeNull();
});

describe("LLM router", () => {
  let fake: FakeLlm;
  let llmApp: TestApp;
  let tenant: Tenant;
  let answer: () => Response | { content: string } = () => ({ content: "{}" });

  beforeAll(async () => {
    fake = startFakeLlm(() => answer());
    llmApp = await testApp({
      LLM_API_KEY: "sk-test-router",
      LLM_BASE_URL: fake.url,
      LLM_MODEL: "router-model",
      LLM_TIMEOUT_MS: 2000,
    });
    tenant = await llmApp.tenant("llm-routing");
    await seed(llmApp, tenant, AGENT, [
      { content: "The user drinks oat milk lattes.", created_at: new Date().toISOString() },
    ]);
  });
  afterAll(async () => {
    await llmApp.close();
    fake.stop();
  });

  test("the LLM's choice weights AUTO's fusion, never filters it, and the menu lists only available strategies", async () => {
    answer = () => ({ content: JSON.stringify({ strategy: "vector", reason: "a paraphrase" }) });
    const res = await recall(llmApp, tenant.key, { agent_id: AGENT, query: "lattes" });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.fusion.strategies).toEqual(["LEXICAL", "VECTOR"]);
    expect(res.body.routing).toMatchObject({ requested: "AUTO", method: "llm" });
    expect(res.body.routing.reason).toStartWith(
      "a paraphrase; fused LEXICAL ×1 (full text, always), VECTOR ×0.6",
    );
    expect(res.body.results.map((r: { content: string }) => r.content)).toEqual([
      "The user drinks oat milk lattes.",
    ]);
    const sent = fake.requests.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-test-router");
    expect(sent.body.model).toBe("router-model");
    expect(sent.body.response_format).toEqual({ type: "json_object" });
    const prompt = sent.body.messages.map((m: { content: string }) => m.content).join("\n");
    for (const name of [
      "VECTOR",
      "LEXICAL",
      "TEMPORAL",
      "CODE",
      "GRAPH",
      "TRIPLET",
      "TRACE",
      "ASK",
      "CYPHER",
    ])
      expect(prompt).toContain(`- ${name}:`);
    // The router itself is not on its own menu.
    expect(prompt).not.toContain("- AUTO:");
    expect(prompt.match(/^- [A-Z]+:/gm)?.length).toBe(9);
  });

  test("a choice outside the menu (the router itself, or an unknown name) falls back to the rules, saying why", async () => {
    for (const choice of ["AUTO", "SQL"]) {
      answer = () => ({ content: JSON.stringify({ strategy: choice }) });
      const res = await recall(llmApp, tenant.key, { agent_id: AGENT, query: "latte" });
      expect(res.body.fusion.strategies).toEqual(["LEXICAL", "VECTOR"]);
      expect(res.body.routing.method).toBe("rules");
      expect(res.body.routing.reason).toContain(`"${choice}", which is not available`);
    }
    answer = () => ({ content: "I think VECTOR" });
    const prose = await recall(llmApp, tenant.key, { agent_id: AGENT, query: "latte" });
    expect(prose.body.routing.reason).toContain("not JSON");
  });

  test("an LLM outage falls back to the rules", async () => {
    answer = () =>
      new Response(JSON.stringify({ error: { message: "overloaded" } }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    const res = await recall(llmApp, tenant.key, { agent_id: AGENT, query: "latte" });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.routing.method).toBe("rules");
    expect(res.body.routing.reason).toContain("LLM was unavailable");
  });

  test("a pinned strategy never asks the LLM", async () => {
    const before = fake.requests.length;
    const res = await recall(llmApp, tenant.key, {
      agent_id: AGENT,
      query: "latte",
      strategy: "LEXICAL",
    });
    expect(res.body.routing.method).toBe("pinned");
    expect(fake.requests.length).toBe(before);
  });
});

describe("embedder down", () => {
  test("a pinned VECTOR degrades to LEXICAL and AUTO goes on without VECTOR, each saying so", async () => {
    const down = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response("down", { status: 503 }),
    });
    const d = await testApp({
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_PROVIDER_API_KEY: "sk-emb",
      EMBEDDING_BASE_URL: `http://127.0.0.1:${down.port}/v1`,
      EMBEDDING_MAX_RETRIES: 0,
      EMBEDDING_TIMEOUT_MS: 1000,
    });
    try {
      const tenant = await d.tenant("embedder-down");
      const [id] = await seed(d, tenant, AGENT, [{ content: "The user drinks oat milk lattes." }]);
      const res = await recall(d, tenant.key, {
        agent_id: AGENT,
        query: "oat milk lattes",
        strategy: "VECTOR",
      });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.strategy).toBe("LEXICAL");
      expect(res.body.routing.degraded_from).toBe("VECTOR");
      expect(res.body.routing.reason).toContain("embedding provider is unavailable");
      expect(res.body.results.map((r: { memory_id: string }) => r.memory_id)).toEqual([id]);
      const auto = await recall(d, tenant.key, { agent_id: AGENT, query: "oat milk lattes" });
      expect(auto.status, show(auto)).toBe(200);
      expect(auto.body.fusion.strategies).toEqual(["LEXICAL"]);
      expect(auto.body.routing.reason).toContain(
        "VECTOR left out: the embedding provider is unavailable",
      );
      expect(auto.body.results.map((r: { memory_id: string }) => r.memory_id)).toEqual([id]);
    } finally {
      await d.close();
      down.stop(true);
    }
  });
});
