// The rerank stage against a fake OpenAI-compatible chat server (real HTTP): the LLM's order is
// applied, an unusable answer or a failing server keeps the strategy's order (said in note), and
// without an LLM it is a 422.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { startFakeLlm, type FakeLlm } from "./fake-llm";
import { idsOf, recall, seed } from "./seed";

const AGENT = "rerank";
const query = { agent_id: AGENT, query: "garden", strategy: "LEXICAL", top_k: 3 };
let fake: FakeLlm;
let script: () => Response | { content: string };
let t: TestApp;
let tenant: Tenant;
let plain: string[];

beforeAll(async () => {
  fake = startFakeLlm(() => script());
  t = await testApp({
    LLM_API_KEY: "sk-test-rerank",
    LLM_BASE_URL: fake.url,
    LLM_MODEL: "rerank-model",
    LLM_TIMEOUT_MS: 2000,
  });
  tenant = await t.tenant("rerank");
  await seed(t, tenant, AGENT, [
    { content: "The garden gate is green." },
    { content: "My garden has tomatoes, and the garden shed is full." },
    { content: "Garden party on Sunday." },
  ]);
  const res = await recall(t, tenant.key, query);
  expect(res.status, show(res)).toBe(200);
  plain = idsOf(res);
  expect(plain.length).toBe(3);
});
afterAll(async () => {
  await t.close();
  fake.stop();
});

describe("rerank", () => {
  test("the LLM's order is applied; passages it left out follow in the strategy's order", async () => {
    script = () => ({ content: JSON.stringify({ order: ["P3", "P1", "P9", "P3"] }) });
    const res = await recall(t, tenant.key, { ...query, rerank: true });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual([plain[2]!, plain[0]!, plain[1]!]);
    expect(res.body.note).toContain("reranked the first 3 by the LLM (rerank-model)");
    const prompt: string = fake.requests.at(-1)!.body.messages.at(-1).content;
    expect(prompt).toContain('P1: "');
    expect(prompt).toContain('Query: "garden"');
  });

  test("an unusable answer keeps the strategy's order and says so", async () => {
    script = () => ({ content: "I think the second one." });
    const res = await recall(t, tenant.key, { ...query, rerank: true });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual(plain);
    expect(res.body.note).toContain("not the JSON asked for");
  });

  test("a failing LLM keeps the strategy's order and says so", async () => {
    script = () => new Response("bad", { status: 400 });
    const res = await recall(t, tenant.key, { ...query, rerank: true });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual(plain);
    expect(res.body.note).toContain("rerank: the LLM was unavailable");
  });
});

test("rerank without a configured LLM is a 422 naming /rerank", async () => {
  const local = await testApp();
  try {
    const other = await local.tenant("rerank-local");
    const res = await recall(local, other.key, { ...query, rerank: true });
    expect(res.status, show(res)).toBe(422);
    expect(res.body.errors[0].path).toBe("/rerank");
  } finally {
    await local.close();
  }
});
