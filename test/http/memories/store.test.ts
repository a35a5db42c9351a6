// Store and batch store through HTTP: records, defaults, validation, TTL, audit in the same
// transaction.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withSystem } from "../../../src/data/with-system";
import { withTenant } from "../../../src/data/with-tenant";
import { systemActor } from "../../../src/domain/actor";
import { createDataset } from "../../../src/domain/datasets/datasets";
import { testApp, show, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant();
});
afterAll(() => t.close());

const pendingAudit = async (orgId: string, operation: string) => [
  ...(await withSystem(
    t.deps.db,
    (tx) => tx<{ target_ids: string[]; agent_id: string; detail: any }[]>`
  SELECT target_ids, agent_id, detail FROM audit_pending WHERE org_id = ${orgId} AND operation = ${operation}`,
  )),
];

describe("POST /v1/memories", () => {
  test("stores a memory and returns the full record with documented defaults", async () => {
    const r = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "agent-1", content: "The user prefers dark mode" },
    });
    expect(r.status, show(r)).toBe(201);
    expect(r.body).toMatchObject({
      agent_id: "agent-1",
      content: "The user prefers dark mode",
      memory_type: "semantic",
      importance: 0.5,
      version: 1,
      metadata: {},
      dataset_id: null,
      valid_to: null,
      deleted_at: null,
      expires_at: null,
      embedding_status: "ready",
      access_count: 0,
    });
    expect(r.body.memory_id).toMatch(/^mem_[0-9A-Z]{26}$/);
    expect(r.body.content_hash).toBe(
      new Bun.CryptoHasher("sha256").update("The user prefers dark mode").digest("hex"),
    );
    const got = await t.request("GET", `/v1/memories/${r.body.memory_id}`, { key: a.key });
    expect(got.status, show(got)).toBe(200);
    expect(got.body).toEqual(r.body);
  });

  test("stores the vector with the embedder's model and dimensions", async () => {
    const r = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "agent-1", content: "vector check" },
    });
    const [row] = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) => tx<{ dims: number; model: string; n: number }[]>`
      SELECT embedding_dims AS dims, embedding_model AS model, vector_dims(embedding) AS n FROM memories WHERE memory_id = ${r.body.memory_id}`,
    );
    expect(row).toEqual({
      dims: t.config.EMBEDDING_DIMENSIONS,
      model: t.deps.embedder.model,
      n: t.config.EMBEDDING_DIMENSIONS,
    });
  });

  test("accepts every documented field", async () => {
    const dataset = await createDataset(t.deps, systemActor(a.orgId), { name: "docs" });
    const r = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: {
        agent_id: "agent-2",
        content: "Deploys happen on Tuesdays",
        memory_type: "procedural",
        metadata: { source: "wiki", tags: ["ops"] },
        importance: 0.9,
        ttl_seconds: 3600,
        dataset_id: dataset.dataset_id,
      },
    });
    expect(r.status, show(r)).toBe(201);
    expect(r.body).toMatchObject({
      memory_type: "procedural",
      metadata: { source: "wiki", tags: ["ops"] },
      importance: expect.closeTo(0.9, 5),
      dataset_id: dataset.dataset_id,
    });
    const ttl = (Date.parse(r.body.expires_at) - Date.parse(r.body.created_at)) / 1000;
    expect(ttl).toBe(3600);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const r2 = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "agent-2", content: "x", expires_at: at },
    });
    expect(r2.status, show(r2)).toBe(201);
    expect(r2.body.expires_at).toBe(at);
  });

  test.each([
    [{ content: "no agent" }, "agent_id"],
    [{ agent_id: "a" }, "content"],
    [{ agent_id: "a", content: "" }, "content"],
    [{ agent_id: "a", content: "   " }, "content"],
    [{ agent_id: "a", content: "x".repeat(32769) }, "content"],
    [{ agent_id: "a", content: "x", memory_type: "dream" }, "memory_type"],
    [{ agent_id: "a", content: "x", importance: 1.5 }, "importance"],
    [{ agent_id: "a", content: "x", importance: -0.1 }, "importance"],
    [{ agent_id: "a", content: "x", metadata: [1, 2] }, "metadata"],
    [{ agent_id: "a", content: "x", metadata: { big: "y".repeat(20000) } }, "metadata"],
    [{ agent_id: "a", content: "x", ttl_seconds: 0 }, "ttl_seconds"],
    [
      {
        agent_id: "a",
        content: "x",
        ttl_seconds: 60,
        expires_at: new Date(Date.now() + 1e6).toISOString(),
      },
      "ttl_seconds",
    ],
    [{ agent_id: "a", content: "x", expires_at: "2001-01-01T00:00:00Z" }, "expires_at"],
    [{ agent_id: "a", content: "x", expires_at: "tomorrow" }, "expires_at"],
    [{ agent_id: "a", content: "x", metadata: "text" }, "metadata"],
    [{ agent_id: "a", content: "x", metadata: null }, "metadata"],
  ])("422 names the field (case %#)", async (body, field) => {
    const r = await t.request("POST", "/v1/memories", { key: a.key, body });
    expect(r.status, show(r)).toBe(422);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(JSON.stringify(r.body.errors ?? r.body.detail)).toContain(field);
  });

  test("writes one store audit row in the same transaction", async () => {
    const b = await t.tenant();
    const r = await t.request("POST", "/v1/memories", {
      key: b.key,
      body: { agent_id: "ag", content: "audited" },
    });
    expect(await pendingAudit(b.orgId, "store")).toEqual([
      { target_ids: [r.body.memory_id], agent_id: "ag", detail: { count: 1 } },
    ]);
  });
});

describe("POST /v1/memories/batch", () => {
  test("stores all items in order, one audit row per agent", async () => {
    const b = await t.tenant();
    const memories = Array.from({ length: 30 }, (_, i) => ({
      agent_id: i % 2 ? "odd" : "even",
      content: `fact number ${i}`,
    }));
    const r = await t.request("POST", "/v1/memories/batch", { key: b.key, body: { memories } });
    expect(r.status, show(r)).toBe(201);
    expect(r.body.count).toBe(30);
    expect(r.body.memories.map((m: any) => m.content)).toEqual(memories.map((m) => m.content));
    const audit = await pendingAudit(b.orgId, "store");
    expect(audit.map((x) => x.agent_id).sort()).toEqual(["even", "odd"]);
    expect(audit.flatMap((x) => x.target_ids).sort()).toEqual(
      r.body.memories.map((m: any) => m.memory_id).sort(),
    );
  });

  test("one invalid item rejects the whole batch and stores nothing", async () => {
    const b = await t.tenant();
    const r = await t.request("POST", "/v1/memories/batch", {
      key: b.key,
      body: {
        memories: [
          { agent_id: "x", content: "fine" },
          { agent_id: "x", content: "bad", metadata: { big: "y".repeat(20000) } },
        ],
      },
    });
    expect(r.status, show(r)).toBe(422);
    expect(JSON.stringify(r.body.errors)).toContain("memories/1/metadata");
    const [count] = await withTenant(
      t.deps.db,
      b.orgId,
      (tx) =>
        tx<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE org_id = ${b.orgId}`,
    );
    expect(count!.n).toBe(0);
    expect(await pendingAudit(b.orgId, "store")).toEqual([]);
  });

  test("rejects an empty batch and one over MEMORY_BATCH_MAX", async () => {
    expect(
      (await t.request("POST", "/v1/memories/batch", { key: a.key, body: { memories: [] } }))
        .status,
    ).toBe(422);
    const over = Array.from({ length: t.config.MEMORY_BATCH_MAX + 1 }, () => ({
      agent_id: "x",
      content: "y",
    }));
    const r = await t.request("POST", "/v1/memories/batch", {
      key: a.key,
      body: { memories: over },
    });
    expect(r.status, show(r)).toBe(422);
  });

  test("calls the embedder once per batch", async () => {
    let calls = 0;
    const embedder = t.deps.embedder;
    const original = embedder.embed.bind(embedder);
    (embedder as { embed: typeof embedder.embed }).embed = (texts, ctx) => {
      calls++;
      return original(texts, ctx);
    };
    try {
      const memories = Array.from({ length: 50 }, (_, i) => ({
        agent_id: "x",
        content: `item ${i}`,
      }));
      const r = await t.request("POST", "/v1/memories/batch", { key: a.key, body: { memories } });
      expect(r.status, show(r)).toBe(201);
      expect(calls).toBe(1);
    } finally {
      (embedder as { embed: typeof embedder.embed }).embed = original;
    }
  });
});

test("budget-exceeded from the metered embedder reaches the client unchanged and stores nothing", async () => {
  const b = await t.tenant();
  const put = await t.request("PUT", "/v1/tenants/me/budgets", {
    key: b.key,
    body: { daily_tokens: 1, monthly_tokens: 1 },
  });
  expect(put.status, show(put)).toBe(200);
  expect(
    (
      await t.request("POST", "/v1/memories", {
        key: b.key,
        body: { agent_id: "x", content: "spends the whole budget" },
      })
    ).status,
  ).toBe(201);
  for (const [path, body] of [
    ["/v1/memories", { agent_id: "x", content: "refused" }],
    ["/v1/memories/batch", { memories: [{ agent_id: "x", content: "refused" }] }],
  ] as const) {
    const r = await t.request("POST", path, { key: b.key, body });
    expect(r.status, show(r)).toBe(429);
    expect(r.body.type).toEndWith("/errors/budget-exceeded");
  }
  const [count] = await withTenant(
    t.deps.db,
    b.orgId,
    (tx) => tx<{ n: number }[]>`SELECT count(*)::int AS n FROM memories`,
  );
  expect(count!.n).toBe(1);
});
