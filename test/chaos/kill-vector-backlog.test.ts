// A `svc worker` SIGKILLed while svc.generate_embedding puts a batch's vectors into the HNSW graph
// (the vector backlog, sql/0134): only whole chunks committed, VECTOR recall through the index
// stays exact meanwhile (waiting rows are scored beside the graph), and a second worker picks the
// stalled job up and finishes — every memory still one current version, none lost, none twice.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { nearestQuery } from "../../src/data/queries/recall/vector";
import { withTenant } from "../../src/data/with-tenant";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { GRAPH_CHUNK } from "../../src/queue/tasks/svc.generate_embedding";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { createMigratedDatabase, dropDatabase } from "../harness/databases";
import { asServingLogin } from "../harness/env";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const N = 4000; // 20 chunks: about 6 s of graph inserts at 1,536 dimensions, a wide window for the kill
const AGENT = "ops";
const QUERY = "which vault runbook revision covers the pager rotation";
const prefix = `${TEST_QUEUE_PREFIX}-kbacklog`;
// A database of its own: 4,000 memories left in the shared one would be work for every later
// all-tenant task (a retention cap of 2 in test/queue/memory-tasks.test.ts forgets all but two of
// them).
const database = `svc_t_${process.pid}_kbacklog_${Date.now().toString(36)}`;
let ownerUrl: string;
let t: TestApp;
let tenant: Tenant;

const workers = chaosWorkers(() => ({
  DATABASE_URL: asServingLogin(ownerUrl),
  DATABASE_MIGRATION_URL: ownerUrl,
  SVC_QUEUE_PREFIX: prefix,
}));

beforeAll(async () => {
  // Exact-sort bound 0: recall goes through the index shape, the one that merges graph and backlog;
  // ef_search 1000 makes the graph part as good as exact, up to half precision's swaps of near
  // ties.
  ownerUrl = await createMigratedDatabase(database);
  t = await testApp(
    { SVC_QUEUE_PREFIX: prefix, RECALL_VECTOR_EXACT_MAX_ROWS: 0, RECALL_HNSW_EF_SEARCH: 1000 },
    ownerUrl,
  );
  tenant = await t.tenant("kill-backlog");
  for (let i = 0; i < N; i += 500) {
    const memories = Array.from({ length: 500 }, (_, k) => ({
      agent_id: AGENT,
      content: `memory ${i + k}: the ${["kafka", "vault", "pager"][(i + k) % 3]} runbook, revision ${(i + k) % 97}, rotation ${(i + k) % 13}`,
    }));
    const res = await t.request("POST", "/v1/memories/batch", {
      key: tenant.key,
      body: { memories },
    });
    expect(res.status, show(res)).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  // Gone before the drop: the owner may not terminate the serving login's connections.
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
  await dropDatabase(database);
}, 30_000);

const state = () =>
  withTenant(t.deps.db, tenant.orgId, async (tx) => {
    const [row] = await tx<
      {
        rows: number;
        current: number;
        memories: number;
        graphed: number;
        versions_above_one: number;
      }[]
    >`
    SELECT count(*)::int AS rows, count(*) FILTER (WHERE valid_to IS NULL)::int AS current,
      count(DISTINCT memory_id)::int AS memories,
      count(*) FILTER (WHERE valid_to IS NULL AND vector_indexed)::int AS graphed,
      count(*) FILTER (WHERE version <> 1)::int AS versions_above_one
    FROM memories`;
    return row!;
  });

/** VECTOR over HTTP against the exact answer of the same search, in whatever state the graph is. */
const recallIsExact = async () => {
  const res = await t.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: { agent_id: AGENT, query: QUERY, strategy: "VECTOR", top_k: 10 },
  });
  expect(res.status, show(res)).toBe(200);
  const vector = (await t.deps.embedder.embed([QUERY], { orgId: tenant.orgId })).vectors[0]!;
  const search = {
    filter: { orgId: tenant.orgId, agentId: AGENT },
    vector,
    dimensions: t.config.EMBEDDING_DIMENSIONS,
    limit: 10,
    efSearch: 40,
    maxScanTuples: 20000,
    exactMaxRows: 0,
  };
  const exact = await withTenant(t.deps.db, tenant.orgId, (tx) =>
    nearestQuery(tx, search, "exact"),
  );
  expect(res.body.results).toHaveLength(10);
  res.body.results.forEach((r: { score: number }, i: number) =>
    expect(Math.abs(r.score - exact[i]!.score), `place ${i}`).toBeLessThan(2e-3),
  );
};

test("kill -9 while graphing the backlog, then a second worker: whole chunks, exact recall meanwhile, nothing lost or doubled", async () => {
  expect(await state()).toEqual({
    rows: N,
    current: N,
    memories: N,
    graphed: 0,
    versions_above_one: 0,
  });
  await recallIsExact();

  const first = workers.spawn(); // takes the job the first batch enqueued
  await eventually(
    async () => (await state()).graphed >= GRAPH_CHUNK,
    "the first chunk to commit",
    60_000,
  );
  first.kill("SIGKILL");
  await first.exited;

  const killed = await state();
  expect(killed.graphed % GRAPH_CHUNK, "only whole chunks committed").toBe(0);
  expect(killed.graphed, "killed before the end").toBeLessThan(N);
  expect(killed).toMatchObject({ rows: N, current: N, memories: N, versions_above_one: 0 });
  await recallIsExact();

  workers.spawn();
  const final = await eventually(
    async () => {
      const s = await state();
      return s.graphed === N ? s : null;
    },
    "the second worker to finish graphing",
    90_000,
  );
  expect(final).toEqual({ rows: N, current: N, memories: N, graphed: N, versions_above_one: 0 });
  await recallIsExact();
}, 180_000);
