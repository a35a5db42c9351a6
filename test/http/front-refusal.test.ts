// The refusal before the pipeline (issue 23), in both database modes: once a bucket is known to be
// empty (a client address out of failed authentications, a verified key out of tokens), its
// requests are answered by the fetch handler with the chain's own 429 (status, problem body,
// Retry-After, X-RateLimit-*, CORS) but never reach the chain: no access-log line, no count in
// svc_http_requests_total, no limiter call; svc_http_refused_before_pipeline_total counts them.
// A client address's refusal is held about a second first.
import { describe, expect, test } from "bun:test";
import { bytesToHex } from "@noble/hashes/utils.js";
import { hashKey, mintKey } from "../../src/domain/keys/format";
import { show, type Tenant, type TestApp, type TestResponse } from "../harness/app";
import { bothModes } from "../harness/both-modes";

const ALLOWED_ORIGIN = "https://app.example";
const LIMITS = {
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_UNAUTHENTICATED_BURST: 2,
  RATE_LIMIT_UNAUTHENTICATED_REQUESTS: 1,
  RATE_LIMIT_BURST: 3,
  RATE_LIMIT_REQUESTS: 1,
  RATE_LIMIT_WINDOW: 3600,
  TRUSTED_PROXY_HOPS: 1,
  SVC_CORS_ORIGINS: `${ALLOWED_ORIGIN},https://other.example`,
};
/** An address of this test alone: the Valkey buckets outlive the app (an hour's window). */
const freshAddress = () => {
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}`;
};

const modes = bothModes("front-refusal", LIMITS);

/** Authenticates until this process caches verified keys (the LISTEN comes up late). */
async function keyCacheUp(app: TestApp, tenant: Tenant) {
  for (let i = 0; i < 200 && !app.deps.keyCache.get(bytesToHex(hashKey(tenant.key))); i++) {
    // Its key's small bucket may run out (429) once it authenticated: the cache is filled first.
    expect([200, 429]).toContain(
      (await app.request("GET", "/v1/usage", { key: tenant.key })).status,
    );
    await Bun.sleep(10);
  }
}

/** Responses the chain counted (its access log's metric), and the ones refused before it. */
async function counted(app: TestApp) {
  const sum = async (metric: { get(): Promise<{ values: Array<{ value: number }> }> }) =>
    (await metric.get()).values.reduce((total, v) => total + v.value, 0);
  return {
    chain: await sum(app.deps.metrics.httpRequests),
    front: await sum(app.deps.metrics.refusedBeforePipeline),
  };
}

/** Limiter calls while `fn` runs. */
async function limiterCalls(app: TestApp, fn: () => Promise<void>): Promise<number> {
  const limiter = app.deps.limiter;
  const { peek, take } = limiter;
  let calls = 0;
  limiter.peek = (key, policy) => (calls++, peek(key, policy));
  limiter.take = (buckets) => (calls++, take(buckets));
  try {
    await fn();
  } finally {
    limiter.peek = peek;
    limiter.take = take;
  }
  return calls;
}

/** The headers two answers of the chain's layers share: CORS and the key bucket's posture. */
const shared = (r: TestResponse) =>
  Object.fromEntries(
    [...r.headers].filter(
      ([name]) =>
        name.startsWith("access-control-") || name === "vary" || name.startsWith("x-ratelimit-"),
    ),
  );

/** The chain's 429 problem (6-rate-limit.ts, 5-authenticate.ts) for this bucket and wait. */
function expectProblem(r: TestResponse, bucket: string, whose: string) {
  const retryAfter = Number(r.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(3000); // the next token is an hour's 1/Nth away
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  expect(r.body).toEqual({
    type: "http://127.0.0.1:8080/docs/errors/rate-limited",
    title: "Rate Limit Exceeded",
    status: 429,
    detail: `Too many requests${whose}; retry after ${retryAfter} s`,
    instance: "/v1/usage",
    request_id: r.headers.get("x-request-id"),
    bucket,
  });
}

for (const mode of modes) {
  describe(`${mode.name}: refusals before the pipeline`, () => {
    test("a spent address's next requests never reach the chain, with the chain's 429", async () => {
      const app = mode.app();
      const address = freshAddress();
      const unknown = () =>
        app.request("GET", "/v1/usage", {
          key: mintKey().plaintext,
          headers: { "x-forwarded-for": address, origin: ALLOWED_ORIGIN },
        });
      const byChain = await unknown();
      expect(byChain.status, show(byChain)).toBe(401);
      expect((await unknown()).status).toBe(401); // the last failure: the memory learns "empty"
      const before = await counted(app);
      const refused: TestResponse[] = [];
      const waited: number[] = [];
      const calls = await limiterCalls(app, async () => {
        for (let i = 0; i < 5; i++) {
          const sent = performance.now();
          refused.push(await unknown());
          waited.push(performance.now() - sent);
        }
      });
      expect(calls).toBe(0);
      expect(await counted(app)).toEqual({ chain: before.chain, front: before.front + 5 });
      // Each is held about a second first (refusal-hold.ts): a closed loop sends one a second.
      for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(950);
      for (const r of refused) {
        expect(r.status, show(r)).toBe(429);
        expectProblem(r, "client_address", " from this address without a valid API key");
        expect(shared(r)).toEqual(shared(byChain));
        expect(r.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
      }
      if (mode.name === "PostgreSQL") {
        const ids = new Set(refused.map((r) => r.body.request_id));
        const logged = mode.app().logLines.filter((line) => ids.has(JSON.parse(line).request_id));
        expect(logged).toEqual([]);
      }
    });

    test("a verified key out of tokens is refused before the chain; others carry on", async () => {
      const app = mode.app();
      await keyCacheUp(app, await mode.tenant("front-refusal-warm-up"));
      const tenant = await mode.tenant("front-refusal");
      const address = freshAddress();
      const usage = (key: string) =>
        app.request("GET", "/v1/usage", { key, headers: { "x-forwarded-for": address } });
      const served: TestResponse[] = [];
      for (let i = 0; i < 3; i++) served.push(await usage(tenant.key));
      expect(served.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(app.deps.keyCache.get(bytesToHex(hashKey(tenant.key)))).not.toBeNull();
      const lastToken = served[2]!; // its take left the bucket empty: the memory learns it
      expect(lastToken.headers.get("x-ratelimit-remaining")).toBe("0");
      const before = await counted(app);
      const refused: TestResponse[] = [];
      const calls = await limiterCalls(app, async () => {
        for (let i = 0; i < 5; i++) refused.push(await usage(tenant.key));
      });
      expect(calls).toBe(0);
      expect(await counted(app)).toEqual({ chain: before.chain, front: before.front + 5 });
      for (const r of refused) {
        expect(r.status, show(r)).toBe(429);
        expectProblem(r, "api_key", "");
        expect(shared(r)).toEqual(shared(lastToken)); // X-RateLimit-Limit 1, -Remaining 0, -Reset
      }
      // Another tenant's key from the same address is served: only the empty bucket is refused.
      const other = await mode.tenant("front-refusal-other");
      const otherUsage = await usage(other.key);
      expect(otherUsage.status, show(otherUsage)).toBe(200);
    });

    test("public paths and preflights are never refused before the chain", async () => {
      const app = mode.app();
      const address = freshAddress();
      const headers = { "x-forwarded-for": address };
      for (let i = 0; i < 3; i++)
        await app.request("GET", "/v1/usage", { key: mintKey().plaintext, headers });
      expect((await app.request("GET", "/v1/health", { headers })).status).toBe(200);
      const preflight = await app.request("OPTIONS", "/v1/usage", {
        headers: {
          ...headers,
          origin: ALLOWED_ORIGIN,
          "access-control-request-method": "GET",
        },
      });
      expect(preflight.status, show(preflight)).toBe(204);
    });
  });
}
