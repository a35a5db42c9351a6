// The domain functions behind the memory tasks, on real PostgreSQL: TTL sweep, importance decay,
// retention caps, embedding backfill, and the per-dimension vector index.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ensureVectorIndex } from "../../../src/data/queries/memories/vector-index";
import { withSystem } from "../../../src/data/with-system";
import { withTenant } from "../../../src/data/with-tenant";
import { backfillEmbeddings } from "../../../src/domain/memories/backfill-embeddings";
import { decayImportance } from "../../../src/domain/memories/decay-importance";
import { enforceRetentionCaps } from "../../../src/domain/memories/retention";
import { sweepExpiredMemories } from "../../../src/domain/memories/sweep-expired";
import { createLocalEmbedder } from "../../../src/providers/embeddings/local";
import { privateTestApp, show, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
beforeAll(async () => {
  t = await privateTestApp("maintenance");
});
afterAll(() => t.close());

async function store(tenant: Tenant, body: Record<string, unknown>) {
  const r = await t.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "agent", ...body },
  });
  expect(r.status, show(r)).toBe(201);
  return r.body.memory_id as string;
}
const sql = <T>(tenant: Tenant, fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(t.deps.db, tenant.orgId, fn);
const auditCount = async (tenant: Tenant, reason: string) =>
  (
    await withSystem(
      t.deps.db,
      (tx) => tx<{ n: number }[]>`
  SELECT count(*)::int AS n FROM audit_pending WHERE org_id = ${tenant.orgId} AND operation = 'forget' AND detail->>'reason' = ${reason}`,
    )
  )[0]!.n;

test("sweepExpiredMemories forgets exactly the expired current memories, audited as ttl, and is idempotent", async () => {
  const a = await t.tenant();
  const soon = await store(a, { content: "short lived", ttl_seconds: 60 });
  const later = await store(a, { content: "long lived", ttl_seconds: 86_400 });
  const never = await store(a, { content: "forever" });
  const inTwoMinutes = new Date(Date.now() + 120_000);
  expect(await sweepExpiredMemories(t.deps.db, inTwoMinutes)).toBeGreaterThanOrEqual(1);
  const rows = await sql(
    a,
    (tx) => tx<{ memory_id: string; deleted: boolean }[]>`
    SELECT memory_id, deleted_at IS NOT NULL AS deleted FROM memories ORDER BY memory_id`,
  );
  expect(Object.fromEntries(rows.map((r) => [r.memory_id, r.deleted]))).toEqual({
    [soon]: true,
    [later]: false,
    [never]: false,
  });
  expect(await auditCount(a, "ttl")).toBe(1);
  await sweepExpiredMemories(t.deps.db, inTwoMinutes);
  expect(await auditCount(a, "ttl")).toBe(1);
});

test("GET answers 410 once expires_at has passed, even before the sweep", async () => {
  const a = await t.tenant();
  const id = await store(a, { content: "about to expire", ttl_seconds: 1 });
  await sql(
    a,
    (tx) =>
      tx`UPDATE memories SET expires_at = now() - interval '1 second' WHERE memory_id = ${id}`,
  );
  expect((await t.request("GET", `/v1/memories/${id}`, { key: a.key })).status).toBe(410);
});

describe("decayImportance", () => {
  test("halves the distance to the floor per half-life of non-use, and a rerun changes nothing", async () => {
    const a = await t.tenant();
    const unused = await store(a, { content: "unused", importance: 0.85 });
    const used = await store(a, { content: "recently used", importance: 0.85 });
    const start = new Date(Date.now() - 720 * 3600_000);
    await sql(
      a,
      (tx) => tx`UPDATE memories SET valid_from = ${start}, importance_decayed_at = NULL`,
    );
    await sql(
      a,
      (tx) =>
        tx`INSERT INTO memory_access (org_id, memory_id, access_count, last_accessed_at) VALUES (${a.orgId}, ${used}, 1, now() - interval '360 hours')`,
    );
    const now = new Date();
    expect(
      await decayImportance(t.deps.db, now, { halfLifeHours: 720, floor: 0.05 }),
    ).toBeGreaterThanOrEqual(2);
    const importance = async () =>
      Object.fromEntries(
        (
          await sql(
            a,
            (tx) => tx<{ memory_id: string; importance: number }[]>`
      SELECT memory_id, importance FROM memories`,
          )
        ).map((r) => [r.memory_id, r.importance]),
      );
    const after = await importance();
    expect(after[unused]).toBeCloseTo(0.05 + 0.8 * 0.5, 3);
    expect(after[used]).toBeCloseTo(0.05 + 0.8 * Math.SQRT1_2, 3);
    await decayImportance(t.deps.db, now, { halfLifeHours: 720, floor: 0.05 });
    expect(await importance()).toEqual(after);
  });

  test("never goes below the floor and leaves memories at or under it alone", async () => {
    const a = await t.tenant();
    const low = await store(a, { content: "already low", importance: 0.01 });
    await sql(a, (tx) => tx`UPDATE memories SET valid_from = now() - interval '10000 hours'`);
    await decayImportance(t.deps.db, new Date(), { halfLifeHours: 1, floor: 0.05 });
    const [row] = await sql(
      a,
      (tx) =>
        tx<{ importance: number }[]>`SELECT importance FROM memories WHERE memory_id = ${low}`,
    );
    expect(row!.importance).toBeCloseTo(0.01, 5);
  });
});

test("enforceRetentionCaps keeps the most important then newest per agent, audited as retention", async () => {
  const a = await t.tenant();
  const ids: Record<string, string> = {};
  for (const [name, importance, agent] of [
    ["low-old", 0.1, "x"],
    ["low-new", 0.1, "x"],
    ["high", 0.9, "x"],
    ["mid", 0.5, "x"],
    ["other-agent", 0.1, "y"],
  ] as const) {
    ids[name] = await store(a, { content: name, importance, agent_id: agent });
    await Bun.sleep(5);
  }
  expect(await enforceRetentionCaps(t.deps.db, 2)).toBeGreaterThanOrEqual(2);
  const current = await sql(
    a,
    (tx) =>
      tx<
        { content: string }[]
      >`SELECT content FROM memories WHERE valid_to IS NULL ORDER BY content`,
  );
  expect(current.map((r) => r.content)).toEqual(["high", "mid", "other-agent"]);
  expect(await auditCount(a, "retention")).toBe(1);
  expect(await enforceRetentionCaps(t.deps.db, 2)).toBe(0);
});

test("backfillEmbeddings fills missing vectors and re-embeds rows from another model, current versions only", async () => {
  const a = await t.tenant();
  const missing = await store(a, { content: "stored while the provider was down" });
  const oldModel = await store(a, { content: "embedded by an older model" });
  const closed = await store(a, { content: "old version" });
  await t.request("PATCH", `/v1/memories/${closed}`, { key: a.key, body: { importance: 0.3 } });
  await sql(
    a,
    (tx) =>
      tx`UPDATE memories SET embedding = NULL, embedding_model = NULL, embedding_dims = NULL WHERE memory_id IN (${missing}, ${closed})`,
  );
  await sql(
    a,
    (tx) => tx`UPDATE memories SET embedding_model = 'retired-model' WHERE memory_id = ${oldModel}`,
  );

  const embedder = createLocalEmbedder(t.config.EMBEDDING_DIMENSIONS);
  expect(await backfillEmbeddings(t.deps.db, embedder, { limit: 100, orgId: a.orgId })).toBe(3);
  const rows = await sql(
    a,
    (tx) => tx<{ memory_id: string; version: number; ok: boolean }[]>`
    SELECT memory_id, version, embedding IS NOT NULL AND embedding_model = ${embedder.model} AS ok FROM memories ORDER BY memory_id, version`,
  );
  expect(rows.map((r) => [r.memory_id, r.version, r.ok])).toEqual(
    [
      [missing, 1, true],
      [oldModel, 1, true],
      [closed, 1, false],
      [closed, 2, true],
    ].sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[1]) - Number(y[1])),
  );
  expect(await backfillEmbeddings(t.deps.db, embedder, { limit: 100, orgId: a.orgId })).toBe(0);
});

test("ensureVectorIndex creates the HNSW index for another dimension, idempotently", async () => {
  await ensureVectorIndex(t.owner, 384);
  await ensureVectorIndex(t.owner, 384);
  const rows = await t.owner<
    { indexdef: string }[]
  >`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_384'`;
  expect(rows.length).toBe(1);
  expect(rows[0]!.indexdef).toContain("hnsw");
  expect(rows[0]!.indexdef).toContain("halfvec(384)");
  expect(rows[0]!.indexdef).toContain("WITH (m='12', ef_construction='40')");
});

test("ensureVectorIndex replaces a half-precision index with pgvector's default settings (before 0132)", async () => {
  await t.owner.unsafe(
    `CREATE INDEX memories_embedding_512 ON memories USING hnsw ((embedding::halfvec(512)) halfvec_cosine_ops) WHERE valid_to IS NULL AND embedding_dims = 512`,
  );
  await ensureVectorIndex(t.owner, 512);
  const [row] = await t.owner<
    { indexdef: string }[]
  >`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_512'`;
  expect(row!.indexdef).toContain("WITH (m='12', ef_construction='40')");
  const [main] = await t.owner<
    { indexdef: string }[]
  >`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_1536'`;
  expect(main!.indexdef).toContain("WITH (m='12', ef_construction='40')"); // sql/0132
});

test("ensureVectorIndex replaces an index from before 0134, which held the batch-stored rows still waiting for it", async () => {
  await t.owner.unsafe(
    `CREATE INDEX memories_embedding_320 ON memories USING hnsw ((embedding::halfvec(320)) halfvec_cosine_ops) WITH (m = 12, ef_construction = 40) WHERE valid_to IS NULL AND embedding_dims = 320`,
  );
  await ensureVectorIndex(t.owner, 320);
  const rows = await t.owner<
    { indexdef: string }[]
  >`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_320'`;
  expect(rows.length).toBe(1);
  expect(rows[0]!.indexdef).toContain("AND vector_indexed");
});

test("ensureVectorIndex replaces an index left over from before 0130, over full-precision vectors", async () => {
  await t.owner.unsafe(
    `CREATE INDEX memories_embedding_256 ON memories USING hnsw ((embedding::vector(256)) vector_cosine_ops) WHERE valid_to IS NULL AND embedding_dims = 256`,
  );
  await ensureVectorIndex(t.owner, 256);
  const rows = await t.owner<
    { indexdef: string }[]
  >`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_256'`;
  expect(rows.length).toBe(1);
  expect(rows[0]!.indexdef).toContain("halfvec_cosine_ops");
});
