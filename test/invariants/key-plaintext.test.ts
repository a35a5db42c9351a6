// T14: a created key's plaintext exists only in its create response — never in a pg_dump of the
// database nor in the logs, even at debug level — and a revoked key fails on the very next request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { superuserDump } from "../harness/chaos-pg";
import { testDatabaseUrl } from "../harness/env";

const KEYS_PER_TENANT = Number(process.env.SVC_TEST_LONG ?? "1") * 10;

let t: TestApp;
let tenants: Tenant[];
const created: Array<{ key: string; key_id: string; key_start: string; owner: Tenant }> = [];

beforeAll(async () => {
  t = await testApp({ LOG_LEVEL: "debug" });
  tenants = [await t.tenant("plain-a"), await t.tenant("plain-b")];
  for (const owner of tenants) {
    for (let i = 0; i < KEYS_PER_TENANT; i++) {
      const r = await t.request("POST", "/v1/api-keys", {
        key: owner.key,
        body: { name: `plaintext-${i}` },
      });
      expect(r.status, show(r)).toBe(201);
      created.push({ ...r.body, owner });
    }
  }
  // Use every key through both header forms, successfully and unsuccessfully, so it passes through
  // auth, rate limiting, handlers and logging.
  for (const [i, k] of created.entries()) {
    expect((await t.request("GET", "/v1/limits", { key: k.key })).status).toBe(200);
    expect(
      (await t.request("GET", "/v1/api-keys?limit=1", { headers: { "x-api-key": k.key } })).status,
    ).toBe(200);
    expect(
      (await t.request("POST", "/v1/api-keys", { key: k.key, body: { name: 7 } })).status,
    ).toBe(422);
    if (i % 2 === 0)
      expect(
        (await t.request("DELETE", `/v1/api-keys/${k.key_id}`, { key: k.owner.key })).status,
      ).toBe(200);
  }
});
afterAll(() => t.close());

// The first 12 characters are the documented, displayable key_start; the secret is the rest.
const secretOf = (key: string) => key.slice(12);

describe("key plaintext at rest and in logs", () => {
  test(`no plaintext or secret tail of ${KEYS_PER_TENANT * 2} created keys in a superuser pg_dump`, async () => {
    const dump = await superuserDump(testDatabaseUrl());
    expect(dump).toContain("COPY public.api_keys");
    for (const k of created)
      expect(dump.includes(k.key_id), `key ${k.key_id} should be in the dump (it is stored)`).toBe(
        true,
      );
    const leaked = created.filter((k) => dump.includes(k.key) || dump.includes(secretOf(k.key)));
    expect(leaked.map((k) => k.key_id)).toEqual([]);
  });

  test("no plaintext or secret tail in the captured logs at debug level", () => {
    expect(t.logLines.length).toBeGreaterThan(created.length * 3);
    const logs = t.logLines.join("\n");
    const leaked = created.filter((k) => logs.includes(k.key) || logs.includes(secretOf(k.key)));
    expect(leaked.map((k) => k.key_id)).toEqual([]);
    for (const tenant of tenants) expect(logs.includes(secretOf(tenant.key))).toBe(false);
  });

  test("every revoked key is refused on the next request; the others keep working", async () => {
    for (const [i, k] of created.entries()) {
      const r = await t.request("GET", "/v1/limits", { key: k.key });
      expect(r.status, `${k.key_id}: ${show(r)}`).toBe(i % 2 === 0 ? 401 : 200);
      if (i % 2 === 0) expect(r.headers.get("content-type")).toContain("application/problem+json");
    }
  });
});
