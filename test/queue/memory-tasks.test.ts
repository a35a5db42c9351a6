// The memory-maintenance tasks (helper A1's domain functions) delivered through BullMQ to a real
// worker: TTL sweep, importance decay, retention caps and embedding backfill, each checked on
// PostgreSQL.
import { generateEmbeddingTask } from "../../src/queue/tasks/svc.generate_embedding";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { TASK_NAMES } from "../../src/domain/ports/task-queue";
import { TASKS } from "../../src/queue/registry";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { show, TEST_QUEUE_PREFIX, privateTestApp, type TestApp, type Tenant } from "../harness/app";
import { eventually } from "./wait";

let t: TestApp;
let worker: RunningWorker;

beforeAll(async () => {
  t = await privateTestApp("memtasks", {
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-memtasks`,
    MEMORY_RETENTION_CAP_PER_AGENT: 2,
    MEMORY_DECAY_HALF_LIFE_HOURS: 24,
    MEMORY_DECAY_FLOOR: 0.2,
  });
  worker = await startWorker(t.deps);
});

afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

async function store(tenant: Tenant, body: Record<string, unknown>): Promise<string> {
  const r = await t.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "agent", ...body },
  });
  expect(r.status, show(r)).toBe(201);
  return r.body.memory_id;
}

const current = (tenant: Tenant, memoryId: string) =>
  withTenant(
    t.deps.db,
    tenant.orgId,
    async (tx) =>
      (
        await tx`SELECT importance, deleted_at, embedding IS NULL AS no_vector, embedding_model
    FROM memories WHERE memory_id = ${memoryId} ORDER BY version DESC LIMIT 1`
      )[0]!,
  );

test("every task of the spec's table has exactly one definition", () => {
  expect([...TASKS.keys()].sort()).toEqual([...TASK_NAMES].sort());
});

test("svc.sweep_expired_memories forgets expired memories only, through the forget path (audited)", async () => {
  const tenant = await t.tenant("sweep");
  const expired = await store(tenant, { content: "short-lived", ttl_seconds: 60 });
  const kept = await store(tenant, { content: "long-lived", ttl_seconds: 3600 });
  await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) =>
      tx`UPDATE memories SET expires_at = now() - interval '1 second' WHERE memory_id = ${expired}`,
  );
  await t.deps.queue.enqueue("svc.sweep_expired_memories", {});
  await eventually(
    async () => (await current(tenant, expired)).deleted_at !== null,
    "the expired memory to be forgotten",
  );
  expect((await current(tenant, kept)).deleted_at).toBeNull();
  const audit = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`SELECT target_ids FROM audit_pending WHERE operation = 'forget'
    UNION ALL SELECT target_ids FROM audit_log WHERE operation = 'forget'`,
  );
  expect(audit.flatMap((r) => r.target_ids)).toContain(expired);
});

test("svc.decay_importance decays a memory unused for 60 days towards the configured floor", async () => {
  const tenant = await t.tenant("decay");
  const id = await store(tenant, { content: "rarely used", importance: 0.9 });
  await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`UPDATE memories SET valid_from = now() - interval '60 days' WHERE memory_id = ${id}`,
  );
  await t.deps.queue.enqueue("svc.decay_importance", {});
  const decayed = await eventually(async () => {
    const row = await current(tenant, id);
    return row.importance < 0.89 ? row.importance : null;
  }, "decay");
  // half-life 24 h over 60 days leaves only the configured floor (the defaults would give 0.26)
  expect(decayed).toBeCloseTo(0.2, 2);
});

test("svc.enforce_retention_caps keeps the cap's most important memories per agent and forgets the rest", async () => {
  const tenant = await t.tenant("retention");
  const low = await store(tenant, { content: "low", importance: 0.1 });
  const mid = await store(tenant, { content: "mid", importance: 0.5 });
  const high = await store(tenant, { content: "high", importance: 0.9 });
  await t.deps.queue.enqueue("svc.enforce_retention_caps", {});
  await eventually(
    async () => (await current(tenant, low)).deleted_at !== null,
    "the least important memory to be forgotten",
  );
  expect((await current(tenant, mid)).deleted_at).toBeNull();
  expect((await current(tenant, high)).deleted_at).toBeNull();
});

test("svc.generate_embedding fills in a memory stored without a vector and re-embeds one from another model", async () => {
  const tenant = await t.tenant("embed");
  const missing = await store(tenant, { content: "stored while the provider was down" });
  const stale = await store(tenant, { content: "embedded by an older model" });
  await withTenant(t.deps.db, tenant.orgId, async (tx) => {
    await tx`UPDATE memories SET embedding = NULL, embedding_model = NULL, embedding_dims = NULL WHERE memory_id = ${missing}`;
    await tx`UPDATE memories SET embedding_model = 'retired-model' WHERE memory_id = ${stale}`;
  });
  await t.deps.queue.enqueue("svc.generate_embedding", { org_id: tenant.orgId });
  await eventually(async () => !(await current(tenant, missing)).no_vector, "the backfill");
  await eventually(
    async () => (await current(tenant, stale)).embedding_model === t.deps.embedder.model,
    "the re-embed",
  );
});

test("svc.generate_embedding reports its progress: done of total, rate and ETA, and the switch to the configured generation", async () => {
  const tenant = await t.tenant("embed-progress");
  const ids = [
    await store(tenant, { content: "first memory to re-embed" }),
    await store(tenant, { content: "second memory to re-embed" }),
  ];
  await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) =>
      tx`UPDATE memories SET embedding_model = 'retired-model' WHERE memory_id = ANY(${ids}::text[])`,
  );
  const lines: Record<string, unknown>[] = [];
  const log = {
    ...t.deps.log,
    info: (line: Record<string, unknown>) => void lines.push(line),
  } as unknown as typeof t.deps.log;
  const result = await generateEmbeddingTask.run(
    { org_id: tenant.orgId },
    { ...t.deps, log },
    { jobId: "progress", attempt: 1 },
  );
  // Both vectors came from another model: that is the generation serving the tenant, re-embedded
  // beside it, then switched.
  expect(result).toEqual({ embedded: 2, switched: 1, graphed: 0, tenants: 1 });
  const progress = lines.filter((l) => l.msg === "embedding backfill");
  expect(progress.length).toBe(1);
  expect(progress[0]).toMatchObject({
    reembed_from: `retired-model@${t.deps.embedder.dimensions}`,
    done: 2,
    total: 2,
    switched: true,
    eta_seconds: 0,
  });
  expect(
    await generateEmbeddingTask.run(
      { org_id: tenant.orgId },
      { ...t.deps, log },
      { jobId: "progress", attempt: 1 },
    ),
  ).toEqual({ embedded: 0, switched: 0, graphed: 0, tenants: 1 });
});
