// GET /v1/audit through HTTP: drained rows, chain fields, filters, since validation, pagination,
// isolation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../../src/domain/actor";
import { chainHash, GENESIS_HASH_HEX } from "../../../src/domain/audit/canonical";
import { drainAudit } from "../../../src/domain/audit/drain";
import { verifyOrgChain } from "../../../src/domain/audit/list";
import { recordAudit } from "../../../src/domain/audit/record";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("audit-a");
  b = await t.tenant("audit-b");
  await withTenant(t.deps.db, a.orgId, (tx) =>
    recordAudit(tx, { ...systemActor(a.orgId), keyId: a.keyId }, [
      {
        operation: "store",
        agentId: "agent-1",
        targetIds: ["mem_1"],
        detail: { n: 1, ratio: 0.25, nested: { z: [1, "é"], a: null } },
      },
      { operation: "recall", agentId: "agent-2", detail: { query_chars: 12 } },
      { operation: "store", agentId: "agent-2", targetIds: ["mem_2", "mem_3"] },
    ]),
  );
  await drainAudit(t.deps.db, {});
});
afterAll(() => t.close());

describe("GET /v1/audit", () => {
  test("lists drained rows in seq order with a chain a client can recompute", async () => {
    const res = await t.request("GET", "/v1/audit", { key: a.key });
    expect(res.status, show(res)).toBe(200);
    const items = res.body.items as any[];
    expect(items.map((r) => r.seq)).toEqual(items.map((_, i) => i + 1));
    expect(items[0].prev_hash).toBe(GENESIS_HASH_HEX);
    let prev = GENESIS_HASH_HEX;
    for (const r of items) {
      expect(r.prev_hash).toBe(prev);
      const recomputed = chainHash(prev, {
        org_id: a.orgId,
        seq: r.seq,
        occurred_at: r.occurred_at_us,
        operation: r.operation,
        agent_id: r.agent_id,
        key_id: r.key_id,
        request_id: r.request_id,
        target_ids: r.target_ids,
        detail: r.detail,
      });
      expect(recomputed).toBe(r.hash);
      prev = r.hash;
    }
    expect(items.some((r) => r.operation === "api_key.create")).toBe(true);
  });

  test("filters by agent_id, operation and since", async () => {
    const byAgent = await t.request("GET", "/v1/audit?agent_id=agent-2", { key: a.key });
    expect(byAgent.body.items.map((r: any) => r.operation)).toEqual(["recall", "store"]);
    const byOp = await t.request("GET", "/v1/audit?operation=store", { key: a.key });
    expect(byOp.body.items.map((r: any) => r.target_ids)).toEqual([["mem_1"], ["mem_2", "mem_3"]]);
    const future = await t.request("GET", "/v1/audit?since=2999-01-01T00:00:00Z", { key: a.key });
    expect(future.body.items).toEqual([]);
    const leap = await t.request(
      "GET",
      `/v1/audit?since=${encodeURIComponent("2024-02-29T23:00:00+01:00")}`,
      { key: a.key },
    );
    expect(leap.status, show(leap)).toBe(200);
    const past = await t.request("GET", "/v1/audit?since=2000-01-01", { key: a.key });
    expect(past.body.items.length).toBe(byOp.body.items.length + 2);
  });

  test("a bad since or cursor is a 422 problem", async () => {
    for (const since of [
      "yesterday",
      "2026-13-45",
      "2026-02-30",
      "2026-04-31T10:00:00Z",
      "2026-01-01T25:00:00Z",
      "2026-01-01T10:60:00Z",
      "1700000000",
    ]) {
      const res = await t.request("GET", `/v1/audit?since=${encodeURIComponent(since)}`, {
        key: a.key,
      });
      expect(res.status, since).toBe(422);
      expect(res.body.type).toEndWith("/errors/validation-failed");
    }
    const bad = await t.request("GET", "/v1/audit?cursor=nonsense", { key: a.key });
    expect(bad.status).toBe(422);
    const limit = await t.request("GET", "/v1/audit?limit=0", { key: a.key });
    expect(limit.status).toBe(422);
  });

  test("paginates with limit and next_cursor without gaps or repeats", async () => {
    const seqs: number[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.request(
        "GET",
        `/v1/audit?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        { key: a.key },
      );
      expect(res.status, show(res)).toBe(200);
      seqs.push(...res.body.items.map((r: any) => r.seq));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.length).toBeGreaterThanOrEqual(4);
  });

  test("order=desc lists the newest rows first; limit=5 gives the five newest", async () => {
    const all = await t.request("GET", "/v1/audit?limit=200", { key: a.key });
    const seqs = (all.body.items as any[]).map((r) => r.seq);
    const res = await t.request("GET", "/v1/audit?order=desc&limit=5", { key: a.key });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.items.map((r: any) => r.seq)).toEqual(seqs.slice(-5).reverse());
    const asc = await t.request("GET", "/v1/audit?order=asc&limit=2", { key: a.key });
    expect(asc.body.items.map((r: any) => r.seq)).toEqual([1, 2]);
  });

  test("a descending cursor walks back to seq 1 without gaps and keeps its order", async () => {
    const seqs: number[] = [];
    let cursor: string | null = null;
    let first = true;
    do {
      const path: string = first
        ? "/v1/audit?order=desc&limit=2"
        : `/v1/audit?limit=2&cursor=${cursor}`;
      const res: any = await t.request("GET", path, { key: a.key });
      expect(res.status, show(res)).toBe(200);
      seqs.push(...res.body.items.map((r: any) => r.seq));
      cursor = res.body.next_cursor;
      first = false;
    } while (cursor);
    expect(seqs).toEqual(seqs.map((_, i) => seqs.length - i));
    const page = await t.request("GET", "/v1/audit?order=desc&limit=1", { key: a.key });
    const next = page.body.next_cursor as string;
    const same = await t.request("GET", `/v1/audit?order=desc&limit=1&cursor=${next}`, {
      key: a.key,
    });
    expect(same.body.items[0].seq).toBe(page.body.items[0].seq - 1);
    const clash = await t.request("GET", `/v1/audit?order=asc&cursor=${next}`, { key: a.key });
    expect(clash.status).toBe(422);
    expect(JSON.stringify(clash.body)).toContain("order");
  });

  test("until bounds occurred_at from above; since and until together select a window", async () => {
    const past = await t.request("GET", "/v1/audit?until=2000-01-01", { key: a.key });
    expect(past.status, show(past)).toBe(200);
    expect(past.body.items).toEqual([]);
    const all = await t.request("GET", "/v1/audit?order=desc&since=2000-01-01&until=2999-01-01", {
      key: a.key,
    });
    expect(all.body.items.length).toBeGreaterThanOrEqual(4);
    const cut = all.body.items[1].occurred_at as string;
    const upTo = await t.request("GET", `/v1/audit?order=desc&until=${encodeURIComponent(cut)}`, {
      key: a.key,
    });
    expect(upTo.body.items.every((r: any) => r.occurred_at <= cut)).toBe(true);
    expect(upTo.body.items.some((r: any) => r.seq === all.body.items[1].seq)).toBe(true);
  });

  test("a bad order or until is a 422 problem naming the field", async () => {
    const cases: Array<[string, string]> = [
      ["order=newest", "order"],
      ["until=tomorrow", "until"],
      ["until=2026-02-30", "until"],
      ["since=2026-02-01&until=2026-01-01", "until"],
      [`cursor=${Buffer.from('[3,"up"]').toString("base64url")}`, "cursor"],
    ];
    for (const [query, field] of cases) {
      const res = await t.request("GET", `/v1/audit?${query}`, { key: a.key });
      expect(res.status, query).toBe(422);
      expect(res.body.type).toEndWith("/errors/validation-failed");
      expect(JSON.stringify(res.body), query).toContain(field);
    }
  });

  test("another tenant sees only its own chain", async () => {
    const res = await t.request("GET", "/v1/audit", { key: b.key });
    expect(res.status).toBe(200);
    expect(
      res.body.items.every((r: any) => r.agent_id === null && r.operation === "api_key.create"),
    ).toBe(true);
    expect(res.body.items.length).toBe(1);
  });

  test("both chains verify", async () => {
    expect(await verifyOrgChain(t.deps.db, a.orgId)).toEqual({ ok: true, rows: 4 });
    expect(await verifyOrgChain(t.deps.db, b.orgId)).toEqual({ ok: true, rows: 1 });
  });
});
