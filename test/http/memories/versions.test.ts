// GET, history, PATCH and forget through HTTP: versions, concurrency, 404/410 rules, tenant
// isolation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withSystem } from "../../../src/data/with-system";
import { withTenant } from "../../../src/data/with-tenant";
import { newId } from "../../../src/lib/ids";
import { testApp, show, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant();
  b = await t.tenant();
});
afterAll(() => t.close());

async function store(tenant: Tenant, content: string, extra: Record<string, unknown> = {}) {
  const r = await t.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "agent", content, ...extra },
  });
  expect(r.status, show(r)).toBe(201);
  return r.body as { memory_id: string; content_hash: string };
}

describe("PATCH /v1/memories/{id}", () => {
  test("creates the next version; history lists all versions oldest first with closed intervals", async () => {
    const m = await store(a, "first", { metadata: { v: 1 }, importance: 0.2 });
    const p1 = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { content: "second" },
    });
    expect(p1.status, show(p1)).toBe(200);
    expect(p1.body).toMatchObject({
      version: 2,
      content: "second",
      metadata: { v: 1 },
      importance: expect.closeTo(0.2, 5),
      valid_to: null,
    });
    const p2 = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { metadata: { v: 3 }, importance: 1 },
    });
    expect(p2.body).toMatchObject({
      version: 3,
      content: "second",
      metadata: { v: 3 },
      importance: 1,
    });

    const h = await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key });
    expect(h.status, show(h)).toBe(200);
    const versions = h.body.versions;
    expect(versions.map((v: any) => [v.version, v.content])).toEqual([
      [1, "first"],
      [2, "second"],
      [3, "second"],
    ]);
    expect(versions[0].valid_to).toBe(versions[1].valid_from);
    expect(versions[1].valid_to).toBe(versions[2].valid_from);
    expect(versions[2].valid_to).toBeNull();
    expect(
      (await t.request("GET", `/v1/memories/${m.memory_id}`, { key: a.key })).body.version,
    ).toBe(3);
  });

  test("new content gets a new vector and hash; unchanged content keeps the old vector", async () => {
    const m = await store(a, "alpha beta");
    await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { importance: 0.7 },
    });
    const p = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { content: "gamma delta" },
    });
    expect(p.body.content_hash).not.toBe(m.content_hash);
    const rows = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) => tx<{ version: number; same: boolean }[]>`
      SELECT version, embedding = (SELECT embedding FROM memories WHERE memory_id = ${m.memory_id} AND version = 1) AS same
      FROM memories WHERE memory_id = ${m.memory_id} ORDER BY version`,
    );
    expect(rows.map((r) => [r.version, r.same])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  test("20 concurrent PATCHes give contiguous versions 1..21 and exactly one current", async () => {
    const m = await store(a, "contended");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.request("PATCH", `/v1/memories/${m.memory_id}`, {
          key: a.key,
          body: { content: `edit ${i}` },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.map((r) => r.body.version).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    const h = await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key });
    expect(h.body.versions.map((v: any) => v.version)).toEqual(
      Array.from({ length: 21 }, (_, i) => i + 1),
    );
    expect(h.body.versions.filter((v: any) => v.valid_to === null).length).toBe(1);
  });

  test.each([
    [{}, ""],
    [{ content: "" }, "content"],
    [{ importance: 2 }, "importance"],
    [{ metadata: [1] }, "metadata"],
    [{ content: 5 }, "content"],
  ])("422 for a bad patch (case %#)", async (body, field) => {
    const m = await store(a, "patch target");
    const r = await t.request("PATCH", `/v1/memories/${m.memory_id}`, { key: a.key, body });
    expect(r.status, show(r)).toBe(422);
    expect(JSON.stringify(r.body)).toContain(field);
    expect(
      (await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key })).body.versions
        .length,
    ).toBe(1);
  });

  test("PATCH of a forgotten memory is 410 and adds no version", async () => {
    const m = await store(a, "to forget");
    await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_id: m.memory_id },
    });
    const r = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { content: "revive" },
    });
    expect(r.status, show(r)).toBe(410);
    expect(r.body.type).toEndWith("/errors/gone");
    expect(
      (await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key })).body.versions
        .length,
    ).toBe(1);
  });

  test("writes an update audit row", async () => {
    const c = await t.tenant();
    const m = await store(c, "audited patch");
    await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: c.key,
      body: { importance: 0.1 },
    });
    const rows = await withSystem(
      t.deps.db,
      (tx) => tx<{ target_ids: string[]; detail: any }[]>`
      SELECT target_ids, detail FROM audit_pending WHERE org_id = ${c.orgId} AND operation = 'update'`,
    );
    expect([...rows]).toEqual([
      {
        target_ids: [m.memory_id],
        detail: { version: 2, previous_version: 1, fields: ["importance"] },
      },
    ]);
  });
});

describe("POST /v1/memories/forget", () => {
  test("forgets one (SDK form): GET is 410, history keeps every version with deleted_at on the last", async () => {
    const m = await store(a, "secret");
    await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { content: "secret v2" },
    });
    const f = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_id: m.memory_id },
    });
    expect(f.status, show(f)).toBe(200);
    expect(f.body).toEqual({ forgotten: [m.memory_id], not_found: [], cert_id: null });
    expect((await t.request("GET", `/v1/memories/${m.memory_id}`, { key: a.key })).status).toBe(
      410,
    );
    const h = await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key });
    expect(h.body.versions.length).toBe(2);
    expect(h.body.versions[1].deleted_at).not.toBeNull();
    expect(h.body.versions[1].valid_to).toBe(h.body.versions[1].deleted_at);
    expect(h.body.versions[0].deleted_at).toBeNull();
  });

  test("forgets many and reports unknown, malformed, repeated and other-tenant ids as not_found", async () => {
    const m1 = await store(a, "one");
    const m2 = await store(a, "two");
    const other = await store(b, "b's memory");
    const f = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_ids: [m1.memory_id, m2.memory_id, other.memory_id, "junk", m1.memory_id] },
    });
    expect(f.status, show(f)).toBe(200);
    expect(f.body.forgotten.sort()).toEqual([m1.memory_id, m2.memory_id].sort());
    expect(f.body.not_found.sort()).toEqual([other.memory_id, "junk"].sort());
    expect((await t.request("GET", `/v1/memories/${other.memory_id}`, { key: b.key })).status).toBe(
      200,
    );
    const again = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_ids: [m1.memory_id] },
    });
    expect(again.body).toEqual({ forgotten: [], not_found: [m1.memory_id], cert_id: null });
  });

  test("agent_id restricts the forget to that agent's memories", async () => {
    const m = await store(a, "agent scoped");
    const f = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_id: m.memory_id, agent_id: "someone-else" },
    });
    expect(f.body).toEqual({ forgotten: [], not_found: [m.memory_id], cert_id: null });
  });

  test.each([
    [{}],
    [{ memory_id: "x", memory_ids: ["y"] }],
    [{ memory_ids: [] }],
    [{ memory_ids: "mem_x" }],
  ])("422 for a bad body (case %#)", async (body) => {
    const r = await t.request("POST", "/v1/memories/forget", { key: a.key, body });
    expect(r.status, show(r)).toBe(422);
  });

  test("more than MEMORY_FORGET_MAX_IDS ids is 422", async () => {
    const ids = Array.from({ length: t.config.MEMORY_FORGET_MAX_IDS + 1 }, (_, i) => `mem_${i}`);
    expect(
      (await t.request("POST", "/v1/memories/forget", { key: a.key, body: { memory_ids: ids } }))
        .status,
    ).toBe(422);
  });

  test("ten concurrent forgets of the maximum id count all succeed", async () => {
    const batches = Array.from({ length: 10 }, () =>
      Array.from({ length: t.config.MEMORY_FORGET_MAX_IDS }, () => newId("mem")),
    );
    const results = await Promise.all(
      batches.map((memory_ids) =>
        t.request("POST", "/v1/memories/forget", { key: a.key, body: { memory_ids } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results[0]!.body.not_found.length).toBe(t.config.MEMORY_FORGET_MAX_IDS);
  });

  test("concurrent PATCH and forget never leave a current version behind", async () => {
    for (let round = 0; round < 5; round++) {
      const m = await store(a, `race ${round}`);
      const [, f] = await Promise.all([
        t.request("PATCH", `/v1/memories/${m.memory_id}`, {
          key: a.key,
          body: { content: `race ${round} edited` },
        }),
        t.request("POST", "/v1/memories/forget", { key: a.key, body: { memory_id: m.memory_id } }),
      ]);
      expect(f.body.forgotten, show(f)).toEqual([m.memory_id]);
      const h = await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key });
      expect(h.body.versions.filter((v: any) => v.valid_to === null)).toEqual([]);
    }
  });

  test("writes one forget audit row naming the versions", async () => {
    const c = await t.tenant();
    const m = await store(c, "audited forget");
    await t.request("POST", "/v1/memories/forget", {
      key: c.key,
      body: { memory_id: m.memory_id },
    });
    const rows = await withSystem(
      t.deps.db,
      (tx) => tx<{ target_ids: string[]; detail: any }[]>`
      SELECT target_ids, detail FROM audit_pending WHERE org_id = ${c.orgId} AND operation = 'forget'`,
    );
    expect([...rows]).toEqual([
      {
        target_ids: [m.memory_id],
        detail: { reason: "api", versions: [{ memory_id: m.memory_id, version: 1 }] },
      },
    ]);
  });
});

describe("security on every memory route", () => {
  const routes = (id: string): Array<[string, string, unknown]> => [
    ["GET", `/v1/memories/${id}`, undefined],
    ["GET", `/v1/memories/${id}/history`, undefined],
    ["PATCH", `/v1/memories/${id}`, { content: "hijack" }],
  ];

  test("another tenant's id and malformed ids are 404 on GET, history and PATCH", async () => {
    const theirs = await store(b, "b private");
    for (const id of [
      theirs.memory_id,
      "mem_nope",
      "x".repeat(300),
      "mem_01M80QN97MC7ZXJXEV3Q3T9BMW",
    ]) {
      for (const [method, path, body] of routes(encodeURIComponent(id))) {
        const r = await t.request(method, path, { key: a.key, body });
        expect(r.status, `${method} ${path}: ${show(r)}`).toBe(404);
      }
    }
    const still = await t.request("GET", `/v1/memories/${theirs.memory_id}/history`, {
      key: b.key,
    });
    expect(still.body.versions.length).toBe(1);
  });

  test("no key, a bad key and a revoked key are 401 on every memory route", async () => {
    const m = await store(a, "guarded");
    const victim = await t.tenant();
    await t.request("DELETE", `/v1/api-keys/${victim.keyId}`, { key: victim.key });
    const all: Array<[string, string, unknown]> = [
      ["POST", "/v1/memories", { agent_id: "x", content: "y" }],
      ["POST", "/v1/memories/batch", { memories: [{ agent_id: "x", content: "y" }] }],
      ["POST", "/v1/memories/forget", { memory_id: m.memory_id }],
      ...routes(m.memory_id),
    ];
    for (const key of [null, "svc_sk_notarealkey", victim.key]) {
      for (const [method, path, body] of all) {
        const r = await t.request(method, path, { key, body });
        expect(r.status, `${method} ${path} key=${key}: ${show(r)}`).toBe(401);
      }
    }
    expect(
      (await t.request("GET", `/v1/memories/${m.memory_id}`, { key: a.key })).body.version,
    ).toBe(1);
  });
});
