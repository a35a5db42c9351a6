// Throttling before authentication (issue 23, item 3), in both database modes: failed
// authentications spend a bucket per client address, and an empty bucket answers 429 before any key
// is looked up or compared, while valid keys and other addresses carry on.
import { describe, expect, test } from "bun:test";
import { bytesToHex } from "@noble/hashes/utils.js";
import { hashKey, mintKey } from "../../src/domain/keys/format";
import { show, testApp, type TestApp } from "../harness/app";
import { bothModes } from "../harness/both-modes";

const SUPERADMIN_KEY = "svc_sa_test_superadmin_key_0123456789abcdef";
const THROTTLE = {
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_UNAUTHENTICATED_BURST: 3,
  RATE_LIMIT_UNAUTHENTICATED_REQUESTS: 1,
  RATE_LIMIT_WINDOW: 3600,
  TRUSTED_PROXY_HOPS: 1,
  SUPERADMIN_ENABLED: true,
  SUPERADMIN_API_KEY: SUPERADMIN_KEY,
};
/**
 * An address of this test alone: the Valkey buckets outlive the app (an hour's window), and a pid
 * recurs across runs and parallel workers, so the address is random.
 */
const freshAddress = () => {
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}`;
};
const from = (address: string) => ({ "x-forwarded-for": `198.51.100.7, ${address}` });

const modes = bothModes("auth-throttle", THROTTLE);

/** Authenticates until this process serves the key from its cache (the LISTEN comes up late). */
async function cached(app: TestApp, key: string, headers: Record<string, string>) {
  for (let i = 0; i < 200 && !app.deps.keyCache.get(bytesToHex(hashKey(key))); i++) {
    expect((await app.request("GET", "/v1/usage", { key, headers })).status).toBe(200);
    await Bun.sleep(10);
  }
  expect(app.deps.keyCache.get(bytesToHex(hashKey(key)))).not.toBeNull();
}

for (const mode of modes) {
  describe(`${mode.name}: throttling before authentication`, () => {
    test("failures from one address run out, then 429; other addresses carry on", async () => {
      const app = mode.app();
      const usage = (key: string | null, address: string) =>
        app.request("GET", "/v1/usage", { key, headers: from(address) });
      const address = freshAddress();
      const bad = [mintKey().plaintext, "svc_sk_malformed", null];
      for (const key of bad) {
        const r = await usage(key, address);
        expect(r.status, show(r)).toBe(401);
      }
      const refused = await usage(mintKey().plaintext, address);
      expect(refused.status, show(refused)).toBe(429);
      expect(refused.body).toMatchObject({
        title: "Rate Limit Exceeded",
        bucket: "client_address",
      });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const elsewhere = await usage(mintKey().plaintext, freshAddress());
      expect(elsewhere.status, show(elsewhere)).toBe(401);
    });

    test("an empty bucket refuses before the lookup, even a valid key not yet verified", async () => {
      const app = mode.app();
      const usage = (key: string, address: string) =>
        app.request("GET", "/v1/usage", { key, headers: from(address) });
      const address = freshAddress();
      const verified = await mode.tenant("throttle-verified");
      const unverified = await mode.tenant("throttle-unverified");
      await cached(app, verified.key, from(address));
      for (let i = 0; i < 3; i++) await usage(mintKey().plaintext, address);
      expect((await usage(unverified.key, address)).status).toBe(429);
      const known = await usage(verified.key, address);
      expect(known.status, show(known)).toBe(200);
      const other = await usage(unverified.key, freshAddress());
      expect(other.status, show(other)).toBe(200);
    });

    test("a spent address is refused in-process: no limiter round trip per refusal", async () => {
      const app = mode.app();
      const address = freshAddress();
      const usage = () =>
        app.request("GET", "/v1/usage", { key: mintKey().plaintext, headers: from(address) });
      for (let i = 0; i < 3; i++) expect((await usage()).status).toBe(401);
      const limiter = app.deps.limiter;
      const { peek, take } = limiter;
      let calls = 0;
      limiter.peek = (key, policy) => (calls++, peek(key, policy));
      limiter.take = (buckets) => (calls++, take(buckets));
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) statuses.push((await usage()).status);
        expect(statuses).toEqual(Array(10).fill(429));
        // The first refusal may read the bucket (the third failure's take already said "empty").
        expect(calls).toBeLessThanOrEqual(1);
        // Another address is still asked, and still served.
        const other = await app.request("GET", "/v1/usage", {
          key: mintKey().plaintext,
          headers: from(freshAddress()),
        });
        expect(other.status, show(other)).toBe(401);
        expect(calls).toBeGreaterThan(1);
      } finally {
        limiter.peek = peek;
        limiter.take = take;
      }
    });

    test("wrong superadmin keys spend the bucket; the right key is then refused too", async () => {
      const app = mode.app();
      const address = freshAddress();
      const path = "/v1/tenants/some-tenant/budgets";
      for (let i = 0; i < 3; i++) {
        const headers = from(address);
        const r = await app.request("GET", path, { key: `${SUPERADMIN_KEY}x`, headers });
        expect(r.status, show(r)).toBe(403);
      }
      const r = await app.request("GET", path, { key: SUPERADMIN_KEY, headers: from(address) });
      expect(r.status, show(r)).toBe(429);
    });
  });
}

describe("the client address without a trusted proxy", () => {
  test("is the socket's peer: X-Forwarded-For chosen by the client buys nothing", async () => {
    const app = await testApp({ ...THROTTLE, TRUSTED_PROXY_HOPS: 0 });
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.handle });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`http://127.0.0.1:${server.port}/v1/usage`, {
          headers: {
            authorization: `Bearer ${mintKey().plaintext}`,
            "x-forwarded-for": freshAddress(),
          },
        });
        statuses.push(response.status);
      }
      // The loopback bucket may hold failures of an earlier run: at most three 401s, then 429s.
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    } finally {
      server.stop(true);
      await app.close();
    }
  });
});
