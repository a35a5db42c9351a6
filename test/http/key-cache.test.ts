// The cache of verified keys (src/domain/keys/key-cache.ts): a key change made anywhere reaches
// every process through svc_api_key_changed, not through the TTL. The apps here run with a
// five-minute TTL (the maximum), so a refusal can only come from the notification (or the revoking
// process's own forget).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytesToHex } from "@noble/hashes/utils.js";
import { revokeKey } from "../../src/data/queries/keys/api-keys";
import { withTenant } from "../../src/data/with-tenant";
import type { Deps } from "../../src/operations/deps";
import { hashKey } from "../../src/domain/keys/format";
import { createKeyCache } from "../../src/domain/keys/key-cache";
import type { KeyIdentity } from "../../src/domain/keys/identity";
import { testApp, show, type TestApp, type Tenant } from "../harness/app";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";

const LONG_TTL = { API_KEY_CACHE_TTL_MS: 300_000 };
const hexOf = (key: string) => bytesToHex(hashKey(key));

/**
 * Authenticates until this process serves the key from its cache (the LISTEN comes up
 * asynchronously).
 */
async function cachedIn(app: Pick<TestApp, "request" | "deps">, key: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    expect((await app.request("GET", "/v1/usage", { key })).status).toBe(200);
    if (app.deps.keyCache.get(hexOf(key))) return;
    await Bun.sleep(10);
  }
  throw new Error("the key never entered the cache: is the LISTEN on svc_api_key_changed up?");
}

/** Waits for the notification to land (bounded; far below the TTL), then asks once more. */
async function refusedBy(app: Pick<TestApp, "request" | "deps">, key: string) {
  for (let i = 0; i < 500 && app.deps.keyCache.get(hexOf(key)); i++) await Bun.sleep(10);
  return app.request("GET", "/v1/usage", { key });
}

const revokeOutsideTheApp = (deps: Deps, tenant: Tenant) =>
  withTenant(deps.db, tenant.orgId, (tx) => revokeKey(tx, tenant.keyId));

describe("PostgreSQL: two app instances (separate pools, separate listeners) on one database", () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await testApp(LONG_TTL);
    b = await testApp(LONG_TTL);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  test("a key revoked through instance A is refused by instance B, which had it cached", async () => {
    const tenant = await a.tenant("kc-cross");
    await cachedIn(b, tenant.key);
    const revoked = await a.request("DELETE", `/v1/api-keys/${tenant.keyId}`, { key: tenant.key });
    expect(revoked.status, show(revoked)).toBe(200);
    const r = await refusedBy(b, tenant.key);
    expect(r.status, show(r)).toBe(401);
    expect(r.body.detail).toContain("revoked");
  });

  test("a revocation made outside any app (plain SQL) empties both caches", async () => {
    const tenant = await a.tenant("kc-sql");
    await cachedIn(a, tenant.key);
    await cachedIn(b, tenant.key);
    await revokeOutsideTheApp(a.deps, tenant);
    expect((await refusedBy(a, tenant.key)).status).toBe(401);
    expect((await refusedBy(b, tenant.key)).status).toBe(401);
  });

  test("the revoking instance refuses the key on the very next request (no wait for its own NOTIFY)", async () => {
    const tenant = await a.tenant("kc-self");
    await cachedIn(a, tenant.key);
    expect(
      (await a.request("DELETE", `/v1/api-keys/${tenant.keyId}`, { key: tenant.key })).status,
    ).toBe(200);
    expect((await a.request("GET", "/v1/usage", { key: tenant.key })).status).toBe(401);
  });

  test("API_KEY_CACHE_TTL_MS=0 caches nothing", async () => {
    const off = await testApp({ API_KEY_CACHE_TTL_MS: 0 });
    try {
      const tenant = await off.tenant("kc-off");
      expect((await off.request("GET", "/v1/usage", { key: tenant.key })).status).toBe(200);
      expect(off.deps.keyCache.get(hexOf(tenant.key))).toBeNull();
    } finally {
      await off.close();
    }
  });
});

describe("embedded (PGlite): the single socket session hears the NOTIFY", () => {
  let e: EmbeddedApp;
  beforeAll(async () => {
    e = await embeddedApp("key-cache", LONG_TTL);
  }, 120_000);
  afterAll(() => e.close());

  test("a key revoked by plain SQL is refused although it was cached", async () => {
    const tenant = await e.tenant("kc-embedded");
    await cachedIn(e.app, tenant.key);
    await revokeOutsideTheApp(e.deps, tenant);
    const r = await refusedBy(e.app, tenant.key);
    expect(r.status, show(r)).toBe(401);
  });
});

describe("the cache's own bounds", () => {
  const identity: KeyIdentity = { orgId: "org_x", keyId: "key_x", keyStart: "svc_sk", scopes: [] };
  const following = async (ttlMs: number, clock: () => number) => {
    const cache = createKeyCache(ttlMs, undefined, clock);
    await cache.follow(
      { listen: async (_c: string, _m: unknown, onListen: () => void) => onListen() } as never,
      console as never,
    );
    return cache;
  };

  test("an entry expires at the TTL", async () => {
    let now = 1000;
    const cache = await following(5000, () => now);
    cache.put("h", identity, cache.epoch());
    expect(cache.get("h")).toEqual(identity);
    now += 5000;
    expect(cache.get("h")).toBeNull();
  });

  test("a lookup that overlapped a change is not cached", async () => {
    const cache = await following(5000, () => 0);
    const epoch = cache.epoch();
    cache.forget("key_other");
    cache.put("h", identity, epoch);
    expect(cache.get("h")).toBeNull();
  });

  test("nothing is cached until the LISTEN is up", () => {
    const cache = createKeyCache(5000);
    cache.put("h", identity, cache.epoch());
    expect(cache.get("h")).toBeNull();
  });
});
