// A recall is one tenant transaction (src/domain/recall/recall.ts): the local embedder's spend and
// the audit row commit together with the search or not at all, and the access is counted from that
// audit row when the drain chains it. Run on PostgreSQL and PGlite.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { drainAudit } from "../../../src/domain/audit/drain";
import type { Deps } from "../../../src/operations/deps";
import { createQueryVectorCache } from "../../../src/domain/recall/query-vectors";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";
import { embeddedApp, type EmbeddedApp } from "../../harness/embedded-app";

type Harness = { request: TestApp["request"]; deps: Deps; tenant(name: string): Promise<Tenant> };

const RESULT_FIELDS = [
  "agent_id",
  "content",
  "created_at",
  "dataset_id",
  "expires_at",
  "importance",
  "memory_id",
  "memory_type",
  "metadata",
  "occurred_at",
  "retrievers",
  "score",
  "valid_from",
  "version",
];

async function traces(deps: Deps, tenant: Tenant, memoryId: string) {
  await drainAudit(deps.db, { orgId: tenant.orgId });
  return withTenant(deps.db, tenant.orgId, async (tx) => {
    const [audit] = await tx<{ n: number }[]>`
      SELECT (SELECT count(*) FROM audit_pending WHERE operation = 'recall')::int + (SELECT count(*) FROM audit_log WHERE operation = 'recall')::int AS n`;
    const [access] = await tx<
      { access_count: number }[]
    >`SELECT access_count FROM memory_access WHERE memory_id = ${memoryId}`;
    return { audits: audit!.n, accessCount: access?.access_count ?? 0 };
  });
}

function cases(open: () => Harness) {
  let h: Harness;
  let tenant: Tenant;
  let memoryId: string;
  const recall = (strategy: string) =>
    h.request("POST", "/v1/memories/recall", {
      key: tenant.key,
      body: { agent_id: "rt", query: "which database do we run on", strategy },
    });
  const usage = async () => (await h.request("GET", "/v1/usage", { key: tenant.key })).body.today;

  beforeAll(async () => {
    h = open();
    tenant = await h.tenant("recall-tx");
    const stored = await h.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "rt", content: "We run on PostgreSQL 15 with pgvector" },
    });
    expect(stored.status, show(stored)).toBe(201);
    memoryId = stored.body.memory_id;
  });

  test("VECTOR: one embedding call charged, one audit row, the access counted, exactly the response fields", async () => {
    const before = { usage: await usage(), traces: await traces(h.deps, tenant, memoryId) };
    const r = await recall("VECTOR");
    expect(r.status, show(r)).toBe(200);
    expect(r.body.results.map((x: { memory_id: string }) => x.memory_id)).toContain(memoryId);
    for (const result of r.body.results) expect(Object.keys(result).sort()).toEqual(RESULT_FIELDS);
    const after = await usage();
    expect(after.embedding_calls - before.usage.embedding_calls).toBe(1);
    expect(after.tokens).toBeGreaterThan(before.usage.tokens);
    expect(await traces(h.deps, tenant, memoryId)).toEqual({
      audits: before.traces.audits + 1,
      accessCount: before.traces.accessCount + 1,
    });
  });

  test("LEXICAL embeds nothing, so charges nothing", async () => {
    const before = await usage();
    expect((await recall("LEXICAL")).status).toBe(200);
    expect(await usage()).toEqual(before);
  });

  test("a spent budget refuses VECTOR with 429 budget-exceeded and leaves no trace: no audit row, no access, no usage", async () => {
    const spent = (await usage()).tokens;
    expect(
      (
        await h.request("PUT", "/v1/tenants/me/budgets", {
          key: tenant.key,
          body: { daily_tokens: spent },
        })
      ).status,
    ).toBe(200);
    const before = { usage: await usage(), traces: await traces(h.deps, tenant, memoryId) };
    const r = await recall("VECTOR");
    expect(r.status, show(r)).toBe(429);
    expect(r.body.type).toEndWith("/errors/budget-exceeded");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await usage()).toEqual(before.usage);
    expect(await traces(h.deps, tenant, memoryId)).toEqual(before.traces);
    expect((await recall("LEXICAL")).status).toBe(200); // nothing to charge, so the budget does not stop it
  });
}

describe("PostgreSQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());
  cases(() => t);
});

describe("embedded (PGlite)", () => {
  let e: EmbeddedApp;
  beforeAll(async () => {
    e = await embeddedApp("recall-tx");
  }, 120_000);
  afterAll(() => e.close());
  cases(() => ({ request: e.app.request, deps: e.deps, tenant: e.tenant }));
});

describe("the remote query-vector cache", () => {
  test("is per tenant and model, and drops the least recently used entry", () => {
    const cache = createQueryVectorCache(2);
    cache.put("org_a", "m", "q1", [1]);
    cache.put("org_a", "m", "q2", [2]);
    expect(cache.get("org_b", "m", "q1")).toBeUndefined();
    expect(cache.get("org_a", "other", "q1")).toBeUndefined();
    expect(cache.get("org_a", "m", "q1")).toEqual([1]); // now most recent
    cache.put("org_a", "m", "q3", [3]);
    expect(cache.get("org_a", "m", "q2")).toBeUndefined();
    expect(cache.get("org_a", "m", "q1")).toEqual([1]);
  });
});
