// GET /v1/usage: counters move with metered provider calls (embedding through HTTP stores, LLM
// through the metered port), per tenant, today and month-to-date.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("usage-a");
  b = await t.tenant("usage-b");
});
afterAll(() => t.close());

test("a fresh tenant has zero usage for today's UTC day and month", async () => {
  const res = await t.request("GET", "/v1/usage", { key: a.key });
  expect(res.status, show(res)).toBe(200);
  const now = new Date().toISOString();
  expect(res.body).toEqual({
    today: { date: now.slice(0, 10), tokens: 0, embedding_calls: 0, llm_calls: 0 },
    month_to_date: { month: now.slice(0, 7), tokens: 0, embedding_calls: 0, llm_calls: 0 },
    budgets: { daily_tokens: null, monthly_tokens: null },
  });
});

test("stores, batches and LLM calls are counted for the caller only", async () => {
  expect(
    (
      await t.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "x", content: "a".repeat(40) },
      })
    ).status,
  ).toBe(201);
  const batch = await t.request("POST", "/v1/memories/batch", {
    key: a.key,
    body: {
      memories: [
        { agent_id: "x", content: "b".repeat(8) },
        { agent_id: "x", content: "c".repeat(12) },
      ],
    },
  });
  expect(batch.status, show(batch)).toBeLessThan(300);
  const answer = await t.deps.llm.complete(
    { prompt: "Summarise: the sky is blue. Grass is green." },
    { orgId: a.orgId },
  );
  const res = await t.request("GET", "/v1/usage", { key: a.key });
  expect(res.body.today).toMatchObject({
    tokens: 10 + 2 + 3 + answer.tokens,
    embedding_calls: 2,
    llm_calls: 1,
  });
  expect(res.body.month_to_date).toMatchObject({
    tokens: res.body.today.tokens,
    embedding_calls: 2,
    llm_calls: 1,
  });
  const other = await t.request("GET", "/v1/usage", { key: b.key });
  expect(other.body.today).toMatchObject({ tokens: 0, embedding_calls: 0, llm_calls: 0 });
});
