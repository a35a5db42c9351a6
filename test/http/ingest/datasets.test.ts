// Datasets through HTTP: create (unique live names), list (cursor, stable order, page cap), read
// with counts, store and batch into a dataset (validated), recall's dataset filter, and soft-delete
// that detaches memories in place (still recallable, history kept).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp({ INGEST_ENABLED: true });
  a = await t.tenant("ds-a");
  b = await t.tenant("ds-b");
});
afterAll(() => t.close());

const create = (tenant: Tenant, body: unknown) =>
  t.request("POST", "/v1/datasets", { key: tenant.key, body });

describe("datasets", () => {
  test("create: 201 with an id; a live name is unique ignoring case; bad input is a 422 naming the field", async () => {
    const r = await create(a, {
      name: "Runbooks",
      description: "ops docs",
      metadata: { team: "sre" },
    });
    expect(r.status, show(r)).toBe(201);
    expect(r.body).toMatchObject({
      name: "Runbooks",
      description: "ops docs",
      metadata: { team: "sre" },
      state: "active",
      deleted_at: null,
    });
    expect(r.body.dataset_id).toMatch(/^ds_[0-9A-Z]{26}$/);
    const again = await create(a, { name: "runbooks" });
    expect(again.status, show(again)).toBe(409);
    expect((await create(b, { name: "Runbooks" })).status).toBe(201);
    for (const [body, field] of [
      [{ name: "" }, "/name"],
      [{ name: "x\u0000y" }, "/name"],
      [{ name: "m", metadata: [1] }, "/metadata"],
      [{ name: "u", owner: "me" }, "/owner"],
    ] as const) {
      const bad = await create(a, body);
      expect(bad.status, show(bad)).toBe(422);
      expect(JSON.stringify(bad.body.errors)).toContain(field);
    }
  });

  test("list: oldest first, cursor pages cover every dataset once, limit is capped at 200", async () => {
    const tenant = await t.tenant("ds-list");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await create(tenant, { name: `set-${i}` })).body.dataset_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await t.request("GET", `/v1/datasets?limit=2${cursor ? `&cursor=${cursor}` : ""}`, {
        key: tenant.key,
      });
      expect(r.status, show(r)).toBe(200);
      expect(r.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.items.map((d: { dataset_id: string }) => d.dataset_id));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await t.request("GET", "/v1/datasets?limit=201", { key: tenant.key })).status).toBe(
      422,
    );
    expect(
      (await t.request("GET", "/v1/datasets?cursor=not-a-cursor", { key: tenant.key })).status,
    ).toBe(422);
    await t.request("DELETE", `/v1/datasets/${ids[1]}`, { key: tenant.key });
    const live = await t.request("GET", "/v1/datasets", { key: tenant.key });
    expect(live.body.items.map((d: { dataset_id: string }) => d.dataset_id)).toEqual(
      ids.filter((_, i) => i !== 1),
    );
    const all = await t.request("GET", "/v1/datasets?include_deleted=true", { key: tenant.key });
    expect(all.body.items.map((d: { state: string }) => d.state)).toEqual([
      "active",
      "deleted",
      "active",
      "active",
      "active",
    ]);
  });

  test("store and batch into a dataset; unknown, foreign or deleted datasets are a 422 naming the field", async () => {
    const ds = (await create(a, { name: "store-target" })).body.dataset_id;
    const foreign = (await create(b, { name: "theirs" })).body.dataset_id;
    const stored = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "ag", content: "Backups run at 02:00 UTC", dataset_id: ds },
    });
    expect(stored.status, show(stored)).toBe(201);
    expect(stored.body.dataset_id).toBe(ds);
    for (const bad of ["ds_00000000000000000000000000", foreign, "not-an-id"]) {
      const r = await t.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "ag", content: "x", dataset_id: bad },
      });
      expect(r.status, show(r)).toBe(422);
      expect(r.body.errors).toEqual([
        { path: "dataset_id", message: expect.stringContaining("not a dataset") },
      ]);
    }
    const batch = await t.request("POST", "/v1/memories/batch", {
      key: a.key,
      body: {
        memories: [
          { agent_id: "ag", content: "ok", dataset_id: ds },
          { agent_id: "ag", content: "no", dataset_id: foreign },
        ],
      },
    });
    expect(batch.status, show(batch)).toBe(422);
    expect(batch.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "memories/1/dataset_id",
    ]);
    const got = await t.request("GET", `/v1/datasets/${ds}`, { key: a.key });
    expect(got.body.counts).toEqual({ documents: 0, memories: 1, jobs: 0, detached_memories: 0 });
  });

  test("read: counts; another tenant's id and junk ids are 404", async () => {
    const ds = (await create(a, { name: "readable" })).body.dataset_id;
    expect((await t.request("GET", `/v1/datasets/${ds}`, { key: a.key })).status).toBe(200);
    expect((await t.request("GET", `/v1/datasets/${ds}`, { key: b.key })).status).toBe(404);
    expect((await t.request("DELETE", `/v1/datasets/${ds}`, { key: b.key })).status).toBe(404);
    expect((await t.request("GET", "/v1/datasets/ds_nope", { key: a.key })).status).toBe(404);
  });

  test("delete detaches in place: memories stay recallable, keep their versions, leave the dataset filter; a second delete is 409", async () => {
    const ds = (await create(a, { name: "to-delete" })).body.dataset_id;
    const kept = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: {
        agent_id: "det",
        content: "The quarterly report is due on the fifth",
        dataset_id: ds,
      },
    });
    const patched = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "det", content: "The vendor contract renews in March", dataset_id: ds },
    });
    const outside = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "det", content: "The report template lives in the wiki" },
    });
    expect(
      (
        await t.request("PATCH", `/v1/memories/${patched.body.memory_id}`, {
          key: a.key,
          body: { content: "The vendor contract renews in April" },
        })
      ).status,
    ).toBe(200);
    const filtered = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "det", query: "report", strategy: "LEXICAL", filters: { dataset_id: ds } },
    });
    expect(filtered.body.results.map((r: { memory_id: string }) => r.memory_id)).toEqual([
      kept.body.memory_id,
    ]);

    const deleted = await t.request("DELETE", `/v1/datasets/${ds}`, { key: a.key });
    expect(deleted.status, show(deleted)).toBe(200);
    expect(deleted.body).toMatchObject({
      state: "deleted",
      counts: { memories: 0, detached_memories: 2 },
    });
    expect(deleted.body.deleted_at).not.toBeNull();
    expect((await t.request("DELETE", `/v1/datasets/${ds}`, { key: a.key })).status).toBe(409);

    const now = await t.request("GET", `/v1/memories/${kept.body.memory_id}`, { key: a.key });
    expect(now.body).toMatchObject({ dataset_id: null, version: 1, deleted_at: null });
    const history = await t.request("GET", `/v1/memories/${patched.body.memory_id}/history`, {
      key: a.key,
    });
    expect(
      history.body.versions.map((v: { version: number; dataset_id: string | null }) => [
        v.version,
        v.dataset_id,
      ]),
    ).toEqual([
      [1, ds],
      [2, null],
    ]);
    const recalled = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "det", query: "report", strategy: "LEXICAL" },
    });
    expect(recalled.body.results.map((r: { memory_id: string }) => r.memory_id).sort()).toEqual(
      [kept.body.memory_id, outside.body.memory_id].sort(),
    );
    const emptyFilter = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "det", query: "report", strategy: "LEXICAL", filters: { dataset_id: ds } },
    });
    expect(emptyFilter.body.results).toEqual([]);

    const intoDeleted = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "det", content: "late", dataset_id: ds },
    });
    expect(intoDeleted.status).toBe(422);
    expect(intoDeleted.body.errors[0].message).toContain("deleted");
    const ingestDeleted = await t.request("POST", "/v1/ingest", {
      key: a.key,
      body: { agent_id: "det", dataset_id: ds, text: "late text" },
    });
    expect(ingestDeleted.status, show(ingestDeleted)).toBe(422);
    const audit = await t.request("GET", "/v1/audit?operation=dataset.delete", { key: a.key });
    expect(audit.status).toBe(200);
  });
});
