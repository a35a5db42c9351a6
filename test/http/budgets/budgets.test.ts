// Budgets: GET/PUT /v1/tenants/me/budgets (overrides, defaults, effective caps, 422s) and
// enforcement: 429 budget-exceeded with Retry-After, and 50 concurrent stores overshoot a cap by at
// most one request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp({ USAGE_BUDGET_MONTHLY_TOKENS: 1_000_000, DATABASE_POOL_MAX: 20 });
  a = await t.tenant("budget-a");
  b = await t.tenant("budget-b");
});
afterAll(() => t.close());

const CONTENT = "x".repeat(400); // 100 tokens by the local estimate (characters / 4)

describe("budgets", () => {
  test("GET resolves overrides over USAGE_BUDGET_* defaults, else unlimited", async () => {
    const res = await t.request("GET", "/v1/tenants/me/budgets", { key: a.key });
    expect(res.status, show(res)).toBe(200);
    expect(res.body).toMatchObject({
      org_id: a.orgId,
      overrides: { daily_tokens: null, monthly_tokens: null },
      defaults: { daily_tokens: null, monthly_tokens: 1_000_000 },
      effective: { daily_tokens: null, monthly_tokens: 1_000_000 },
    });
  });

  test("PUT sets and clears overrides; another tenant is unaffected", async () => {
    const put = await t.request("PUT", "/v1/tenants/me/budgets", {
      key: a.key,
      body: { daily_tokens: 5000, monthly_tokens: 0 },
    });
    expect(put.status, show(put)).toBe(200);
    expect(put.body.effective).toEqual({ daily_tokens: 5000, monthly_tokens: 0 });
    expect(put.body.overrides).toEqual({ daily_tokens: 5000, monthly_tokens: 0 });
    const cleared = await t.request("PUT", "/v1/tenants/me/budgets", {
      key: a.key,
      body: { daily_tokens: null },
    });
    expect(cleared.body.overrides).toEqual({ daily_tokens: null, monthly_tokens: null });
    expect(cleared.body.effective).toEqual({ daily_tokens: null, monthly_tokens: 1_000_000 });
    const other = await t.request("GET", "/v1/tenants/me/budgets", { key: b.key });
    expect(other.body.overrides).toEqual({ daily_tokens: null, monthly_tokens: null });
  });

  test("bad bodies are 422 and change nothing", async () => {
    await t.request("PUT", "/v1/tenants/me/budgets", { key: a.key, body: { daily_tokens: 7 } });
    for (const body of [
      { daily_tokens: -1 },
      { monthly_tokens: 1.5 },
      { daily_tokens: "ten" },
      { weekly_tokens: 3 },
      {},
      [],
      { daily_tokens: 1e300 },
    ]) {
      const res = await t.request("PUT", "/v1/tenants/me/budgets", { key: a.key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const res = await t.request("GET", "/v1/tenants/me/budgets", { key: a.key });
    expect(res.body.overrides.daily_tokens).toBe(7);
  });

  test("a spent budget answers 429 budget-exceeded with Retry-After until the next UTC day", async () => {
    const tenant = await t.tenant("spent");
    await t.request("PUT", "/v1/tenants/me/budgets", {
      key: tenant.key,
      body: { daily_tokens: 150 },
    });
    const first = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "a", content: CONTENT },
    });
    expect(first.status, show(first)).toBe(201);
    const second = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "a", content: CONTENT },
    });
    expect(second.status, show(second)).toBe(201);
    const third = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "a", content: CONTENT },
    });
    expect(third.status, show(third)).toBe(429);
    expect(third.body.type).toEndWith("/errors/budget-exceeded");
    const retryAfter = Number(third.headers.get("retry-after"));
    const now = new Date();
    const untilMidnight =
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) /
      1000;
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(retryAfter - untilMidnight)).toBeLessThan(5);
    const usage = await t.request("GET", "/v1/usage", { key: tenant.key });
    expect(usage.body.today.tokens).toBe(200);
  });

  test("50 concurrent stores crossing a cap overshoot it by at most one request's tokens", async () => {
    const tenant = await t.tenant("race");
    const cap = 1000;
    await t.request("PUT", "/v1/tenants/me/budgets", {
      key: tenant.key,
      body: { daily_tokens: cap },
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.request("POST", "/v1/memories", {
          key: tenant.key,
          body: { agent_id: "a", content: CONTENT },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.every((s) => s === 201 || s === 429),
      statuses.join(","),
    ).toBe(true);
    const stored = statuses.filter((s) => s === 201).length;
    const usage = await t.request("GET", "/v1/usage", { key: tenant.key });
    expect(usage.body.today.tokens).toBe(stored * 100);
    expect(usage.body.today.tokens).toBeGreaterThanOrEqual(cap);
    expect(usage.body.today.tokens).toBeLessThanOrEqual(cap + 100);
  }, 30_000);
});
