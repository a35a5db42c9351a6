// API keys: plaintext once, hash at rest, listing without secrets, pagination, revocation on the
// next request, and tenant isolation of key ids.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytesToHex } from "@noble/hashes/utils.js";
import { hashKey } from "../../src/domain/keys/format";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("keys-a");
  b = await t.tenant("keys-b");
});
afterAll(() => t.close());

describe("API keys", () => {
  test("create returns the plaintext once; only its SHA-256 is stored", async () => {
    const r = await t.request("POST", "/v1/api-keys", { key: a.key, body: { name: "ci" } });
    expect(r.status, show(r)).toBe(201);
    expect(r.body).toMatchObject({
      name: "ci",
      kind: "standard",
      revoked_at: null,
      last_used_at: null,
    });
    expect(r.body.key).toMatch(/^svc_sk_[A-Za-z0-9]{49}$/);
    expect(r.body.key_start).toBe(r.body.key.slice(0, 12));
    const [row] = await t.deps.db.primary.begin(async (tx) => {
      await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', ${a.orgId}, true)`;
      return tx`SELECT encode(key_hash, 'hex') AS hash, to_jsonb(api_keys)::text AS row FROM api_keys WHERE key_id = ${r.body.key_id}`;
    });
    expect(row!.hash).toBe(bytesToHex(hashKey(r.body.key)));
    expect(row!.row).not.toContain(r.body.key.slice(12));
    expect((await t.request("GET", "/v1/api-keys", { key: r.body.key })).status).toBe(200);
  });

  test("both header forms authenticate", async () => {
    expect(
      (await t.request("GET", "/v1/api-keys", { headers: { "x-api-key": a.key } })).status,
    ).toBe(200);
    expect(
      (await t.request("GET", "/v1/api-keys", { headers: { authorization: `bearer ${a.key}` } }))
        .status,
    ).toBe(200);
  });

  test("the listing never carries the secret or its hash, and paginates", async () => {
    for (let i = 0; i < 3; i++)
      await t.request("POST", "/v1/api-keys", { key: b.key, body: { name: `k${i}` } });
    const first = await t.request("GET", "/v1/api-keys?limit=2", { key: b.key });
    expect(first.body.items.length).toBe(2);
    expect(first.body.next_cursor).toBeString();
    for (const item of first.body.items)
      expect(Object.keys(item).sort()).toEqual([
        "created_at",
        "key_id",
        "key_start",
        "kind",
        "last_used_at",
        "name",
        "revoked_at",
        "scopes",
      ]);
    const second = await t.request("GET", `/v1/api-keys?limit=2&cursor=${first.body.next_cursor}`, {
      key: b.key,
    });
    const ids = [...first.body.items, ...second.body.items].map(
      (k: { key_id: string }) => k.key_id,
    );
    expect(new Set(ids).size).toBe(4);
    expect(second.body.next_cursor).toBeNull();
    expect(first.text).not.toContain(b.key);
  });

  test("revocation takes effect on the very next request and is idempotent", async () => {
    const created = (
      await t.request("POST", "/v1/api-keys", { key: a.key, body: { name: "short-lived" } })
    ).body;
    expect((await t.request("GET", "/v1/limits", { key: created.key })).status).toBe(200);
    const revoked = await t.request("DELETE", `/v1/api-keys/${created.key_id}`, { key: a.key });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toBeString();
    const after = await t.request("GET", "/v1/limits", { key: created.key });
    expect(after.status).toBe(401);
    expect(after.body.detail).toContain("revoked");
    const again = await t.request("DELETE", `/v1/api-keys/${created.key_id}`, { key: a.key });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  test("another tenant's key id is 404 and stays usable; malformed ids are 404", async () => {
    const foreign = (
      await t.request("POST", "/v1/api-keys", { key: b.key, body: { name: "b-only" } })
    ).body;
    const r = await t.request("DELETE", `/v1/api-keys/${foreign.key_id}`, { key: a.key });
    expect(r.status).toBe(404);
    expect((await t.request("GET", "/v1/limits", { key: foreign.key })).status).toBe(200);
    expect((await t.request("DELETE", "/v1/api-keys/key_%27%3B--", { key: a.key })).status).toBe(
      404,
    );
    const listA = await t.request("GET", "/v1/api-keys?limit=200", { key: a.key });
    expect(listA.body.items.map((k: { key_id: string }) => k.key_id)).not.toContain(foreign.key_id);
  });

  test("key creation and revocation are audited in the same transaction", async () => {
    const created = (
      await t.request("POST", "/v1/api-keys", { key: a.key, body: { name: "audited" } })
    ).body;
    await t.request("DELETE", `/v1/api-keys/${created.key_id}`, { key: a.key });
    const ops = await t.deps.db.primary.begin(async (tx) => {
      await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', ${a.orgId}, true)`;
      return tx`SELECT operation FROM audit_pending WHERE ${created.key_id} = ANY(target_ids) ORDER BY id`;
    });
    const drained = await t.deps.db.primary.begin(async (tx) => {
      await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', ${a.orgId}, true)`;
      const exists = await tx`SELECT to_regclass('audit_log') AS t`;
      return exists[0]!.t
        ? tx`SELECT operation FROM audit_log WHERE ${created.key_id} = ANY(target_ids)`
        : [];
    });
    expect([...ops, ...drained].map((r: any) => r.operation).sort()).toEqual([
      "api_key.create",
      "api_key.revoke",
    ]);
  });
});
