// A `svc worker` SIGKILLed in the middle of a re-embed (generation A → B): every committed batch is
// whole (its next-generation vectors and the progress together), recall keeps answering from A, and
// a second worker resumes the stalled job where the last commit left off — no vector twice, no
// memory re-sent to the server beyond the batch in flight at the kill — and switches the tenant to
// B.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { startFakeEmbeddingServer } from "../harness/fake-embedding-server";
import { chaosWorkers } from "../harness/chaos-workers";
import { GEN_A, MODEL_B } from "../harness/reembed-scenario";
import { eventually } from "../queue/wait";

const N = 600;
const TASK_BATCH = 256; // svc.generate_embedding's batch: one transaction each
const prefix = `${TEST_QUEUE_PREFIX}-kreembed`;
const server = startFakeEmbeddingServer({ dims: 48, delayMs: 250 });
let t: TestApp;
let tenant: Tenant;

const workers = chaosWorkers({
  SVC_QUEUE_PREFIX: prefix,
  EMBEDDING_BASE_URL: server.baseUrl,
  EMBEDDING_MODEL: MODEL_B,
  EMBEDDING_DIMENSIONS: "48",
  EMBEDDING_BATCH_SIZE: "16",
});

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix, ...GEN_A });
  tenant = await t.tenant("kill-reembed");
  for (let i = 0; i < N; i += 100) {
    const memories = Array.from({ length: 100 }, (_, k) => ({
      agent_id: "ops",
      content: `memory ${i + k}: the ${["kafka", "vault", "pager"][(i + k) % 3]} runbook, revision ${i + k}`,
    }));
    const res = await t.request("POST", "/v1/memories/batch", {
      key: tenant.key,
      body: { memories },
    });
    expect(res.status).toBe(201);
  }
  await ensureVectorIndex(t.owner, 48);
});
afterAll(async () => {
  await workers.killAll();
  server.stop();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 30_000);

const state = () =>
  withTenant(t.deps.db, tenant.orgId, async (tx) => {
    const [row] = await tx<
      {
        next: number;
        distinct_next: number;
        stale_next: number;
        done: number | null;
        serving: string | null;
        on_b: number;
      }[]
    >`
    SELECT (SELECT count(*)::int FROM memory_embeddings_next) AS next,
           (SELECT count(DISTINCT (memory_id, version))::int FROM memory_embeddings_next) AS distinct_next,
           (SELECT count(*)::int FROM memory_embeddings_next n WHERE NOT EXISTS (
              SELECT 1 FROM memories m WHERE m.memory_id = n.memory_id AND m.version = n.version AND m.valid_to IS NULL)) AS stale_next,
           (SELECT target_done FROM embedding_generations) AS done,
           (SELECT serving_model FROM embedding_generations) AS serving,
           (SELECT count(*)::int FROM memories WHERE valid_to IS NULL AND embedding_model = ${MODEL_B} AND embedding_dims = 48) AS on_b`;
    return row!;
  });
const recallFromA = async () => {
  const res = await t.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: { agent_id: "ops", query: "vault runbook revision 7", strategy: "VECTOR", top_k: 3 },
  });
  expect(res.status).toBe(200);
  expect(res.body.strategy).toBe("VECTOR");
  expect(res.body.results.length).toBe(3);
};
const sentToServer = () =>
  server.requests.filter((r) => r.status === 200).reduce((n, r) => n + r.input.length, 0);

test("kill -9 mid re-embed, then a second worker: whole batches, A serves meanwhile, no duplicates, then B", async () => {
  await t.deps.queue.enqueue("svc.generate_embedding", { org_id: tenant.orgId });
  const first = workers.spawn();
  await eventually(
    async () => ((await state()).done ?? 0) >= TASK_BATCH,
    "the first batch to commit",
    60_000,
  );
  first.kill("SIGKILL");
  await first.exited;

  const killed = await state();
  expect(killed.serving, "A still serves").toBe("svc-local-hash-v1-64");
  expect(killed.done! % TASK_BATCH, "only whole batches committed").toBe(0);
  expect(killed.done).toBeLessThan(N);
  expect(killed.next, "progress counts exactly what committed").toBe(killed.done!);
  expect(killed.distinct_next).toBe(killed.next);
  expect(killed.stale_next).toBe(0);
  expect(killed.on_b).toBe(0);
  await recallFromA();

  workers.spawn();
  const final = await eventually(
    async () => {
      const s = await state();
      return s.serving === MODEL_B ? s : null;
    },
    "the second worker to finish the re-embed and switch",
    90_000,
  );
  expect(final).toMatchObject({ next: 0, on_b: N });
  // Each memory went to the server once, except those of the batch in flight when the worker died.
  expect(sentToServer()).toBeLessThanOrEqual(N + TASK_BATCH);
  expect(sentToServer()).toBeGreaterThanOrEqual(N);
  const res = await t.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: { agent_id: "ops", query: "vault runbook", strategy: "VECTOR", top_k: 3 },
  });
  // This app is still configured with A: it has no embedder for B and says so instead of answering
  // from the wrong vectors.
  expect(res.status).toBe(200);
  expect(res.body.strategy).toBe("LEXICAL");
  expect(res.body.routing.degraded_from).toBe("VECTOR");
}, 180_000);
