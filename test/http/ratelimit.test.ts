// Token buckets per API key and per tenant: accuracy (allowed = burst + ⌊rate × elapsed⌋ ± 1),
// headers on every authenticated response, the 429 problem, sharing across replicas, and behaviour
// with Valkey down.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/domain/actor";
import { createKey } from "../../src/domain/keys/manage";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";

const LIMITED = {
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_REQUESTS: 20,
  RATE_LIMIT_WINDOW: 1,
  RATE_LIMIT_BURST: 5,
};
let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await testApp(LIMITED);
  tenant = await t.tenant("rl");
});
afterAll(() => t.close());

describe("rate limit", () => {
  test("accuracy under 8 concurrent clients at several times the refill rate", async () => {
    const key = (
      await t.request("POST", "/v1/api-keys", { key: tenant.key, body: { name: "accuracy" } })
    ).body.key as string;
    let allowed = 0,
      firstSend = Infinity,
      lastSend = 0,
      firstReceive = Infinity,
      lastReceive = 0;
    const deadline = performance.now() + 2500;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < deadline) {
          const sent = performance.now();
          const r = await t.request("GET", "/v1/limits", { key });
          const received = performance.now();
          firstSend = Math.min(firstSend, sent);
          lastSend = Math.max(lastSend, sent);
          firstReceive = Math.min(firstReceive, received);
          lastReceive = Math.max(lastReceive, received);
          if (r.status === 200) allowed++;
          else expect(r.status, show(r)).toBe(429);
          await Bun.sleep(10);
        }
      }),
    );
    const rate = LIMITED.RATE_LIMIT_REQUESTS / LIMITED.RATE_LIMIT_WINDOW;
    const low =
      LIMITED.RATE_LIMIT_BURST + Math.floor((rate * (lastSend - firstReceive)) / 1000) - 1;
    const high =
      LIMITED.RATE_LIMIT_BURST + Math.floor((rate * (lastReceive - firstSend)) / 1000) + 1;
    expect(allowed).toBeGreaterThanOrEqual(low);
    expect(allowed).toBeLessThanOrEqual(high);
  });

  test("headers on every authenticated response, including errors; 429 is a problem with Retry-After", async () => {
    const key = (
      await t.request("POST", "/v1/api-keys", { key: tenant.key, body: { name: "headers" } })
    ).body.key as string;
    const seen: Array<{ status: number; remaining: number }> = [];
    let limited: Awaited<ReturnType<TestApp["request"]>> | undefined;
    const check = (r: Awaited<ReturnType<TestApp["request"]>>) => {
      expect(r.headers.get("x-ratelimit-limit")).toBe("20");
      const reset = Number(r.headers.get("x-ratelimit-reset"));
      const now = Date.now() / 1000;
      expect(reset).toBeGreaterThanOrEqual(Math.floor(now));
      expect(reset).toBeLessThanOrEqual(Math.ceil(now) + LIMITED.RATE_LIMIT_WINDOW + 1);
      seen.push({ status: r.status, remaining: Number(r.headers.get("x-ratelimit-remaining")) });
      if (r.status === 429) limited = r;
    };
    check(await t.request("DELETE", "/v1/api-keys/not-an-id", { key }));
    expect(seen[0]).toEqual({ status: 404, remaining: 4 });
    // Then in rounds of ten at once, which spend the burst of 5 faster than it refills (20/s)
    // however slowly a busy machine answers each request.
    for (let round = 0; round < 5 && !limited; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.request("DELETE", "/v1/api-keys/not-an-id", { key })),
      );
      for (const r of answers) check(r);
    }
    expect(limited, JSON.stringify(seen)).toBeDefined();
    expect(limited!.body).toMatchObject({ status: 429, title: "Rate Limit Exceeded" });
    expect(limited!.body.type).toEndWith("/errors/rate-limited");
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get("x-ratelimit-remaining")).toBe("0");
    // the access log names the route the limited request would have reached
    await Bun.sleep(20);
    const line = t.logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === "request" && l.request_id === limited!.body.request_id);
    expect(line).toMatchObject({ status: 429, route: "/v1/api-keys/:key_id", method: "DELETE" });
  });

  test("public routes carry no rate-limit headers and are never limited", async () => {
    for (let i = 0; i < 10; i++) {
      const r = await t.request("GET", "/v1/health");
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });

  test("two replicas share one bucket through Valkey", async () => {
    // A slow refill (one token a minute) so the bucket cannot refill between requests on a loaded
    // machine.
    const SLOW = { ...LIMITED, RATE_LIMIT_REQUESTS: 1, RATE_LIMIT_WINDOW: 60 };
    const t = await testApp(SLOW);
    const other = await testApp(SLOW);
    try {
      const key = (
        await t.request("POST", "/v1/api-keys", { key: tenant.key, body: { name: "shared" } })
      ).body.key as string;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await (i % 2 ? other : t).request("GET", "/v1/limits", { key })).status);
      expect(statuses.filter((s) => s === 200).length).toBe(SLOW.RATE_LIMIT_BURST);
      expect(statuses.slice(SLOW.RATE_LIMIT_BURST)).toEqual([429]);
    } finally {
      await other.close();
      await t.close();
    }
  });

  test("GET /v1/limits reports the posture", async () => {
    const key = (
      await t.request("POST", "/v1/api-keys", { key: tenant.key, body: { name: "posture" } })
    ).body.key as string;
    const r = await t.request("GET", "/v1/limits", { key });
    expect(r.body).toMatchObject({
      enabled: true,
      algorithm: "token_bucket",
      backend: "valkey",
      limit: 20,
      window_seconds: 1,
      burst: 5,
      refill_per_second: 20,
    });
    // This request took one of the 5; the answer reads the bucket after that, and on a busy machine
    // the 50 ms a token takes to refill can pass in between.
    expect([4, 5]).toContain(r.body.remaining);
    // Unset, the tenant bucket is ten keys' worth of the key bucket.
    expect(r.body.tenant).toMatchObject({
      scope: "tenant",
      limit: 200,
      window_seconds: 1,
      burst: 50,
      refill_per_second: 200,
    });
  });

  test("the tenant bucket is shared by all the tenant's keys: a second key buys nothing", async () => {
    // Slow refill (one token a minute for both buckets): what is measured is the sharing, not the
    // rate.
    const SHARED = {
      ...LIMITED,
      RATE_LIMIT_REQUESTS: 1,
      RATE_LIMIT_WINDOW: 60,
      RATE_LIMIT_BURST: 5,
      RATE_LIMIT_TENANT_REQUESTS: 1,
      RATE_LIMIT_TENANT_BURST: 7,
    };
    const shared = await testApp(SHARED);
    try {
      const owner = await shared.tenant("rl-tenant");
      const second = (await createKey(shared.deps.db, systemActor(owner.orgId), "second")).key;
      const bystander = await shared.tenant("rl-bystander");
      const first = [];
      for (let i = 0; i < 5; i++)
        first.push((await shared.request("GET", "/v1/limits", { key: owner.key })).status);
      expect(first).toEqual([200, 200, 200, 200, 200]);
      const posture = await shared.request("GET", "/v1/limits", { key: second });
      expect(posture.status, show(posture)).toBe(200);
      expect(posture.body.remaining).toBe(4);
      expect(posture.body.tenant).toMatchObject({
        scope: "tenant",
        limit: 1,
        window_seconds: 60,
        burst: 7,
        remaining: 1,
      });
      expect((await shared.request("GET", "/v1/limits", { key: second })).status).toBe(200);
      // The second key's own bucket still holds 3 tokens; the tenant's is empty. A refused request
      // spends from neither bucket (one atomic take), so the key keeps its 3.
      const refused = await shared.request("GET", "/v1/limits", { key: second });
      expect(refused.status, show(refused)).toBe(429);
      expect(refused.body).toMatchObject({ status: 429, bucket: "tenant" });
      expect(refused.body.type).toEndWith("/errors/rate-limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("3");
      expect(
        (await shared.request("GET", "/v1/limits", { key: second })).headers.get(
          "x-ratelimit-remaining",
        ),
      ).toBe("3");
      // A key's own empty bucket is reported as such, and never drains the tenant's.
      expect((await shared.request("GET", "/v1/limits", { key: owner.key })).body.bucket).toBe(
        "api_key",
      );
      // Another tenant is untouched.
      const other = await shared.request("GET", "/v1/limits", { key: bystander.key });
      expect(other.status).toBe(200);
      expect(other.body.tenant.remaining).toBe(6);
    } finally {
      await shared.close();
    }
  });

  test("with Valkey unreachable the API keeps serving, limits per replica, and /v1/ready says why", async () => {
    const down = await testApp({ ...LIMITED, VALKEY_URL: "redis://127.0.0.1:1" });
    try {
      const key = await down.request("POST", "/v1/api-keys", {
        key: tenant.key,
        body: { name: "valkey-down" },
      });
      expect(key.status, show(key)).toBe(201);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await down.request("GET", "/v1/limits", { key: key.body.key })).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses).toContain(429);
      const ready = await down.request("GET", "/v1/ready");
      expect(ready.status).toBe(503);
      expect(ready.body.checks.valkey).toBe("failing");
      expect(ready.headers.get("content-type")).toStartWith("application/problem+json");
    } finally {
      await down.close();
    }
  });
});
