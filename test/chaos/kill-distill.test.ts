// A `svc worker` SIGKILLed in the middle of a distill job: every committed batch is whole (its
// distilled_memories rows, graph rows and progress together), the stalled job is picked up by a
// second worker, and the final graph equals one uninterrupted run over the same memories: no
// duplicate memo, edge or provenance row, the same mention counts, and job counters that match what
// committed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { createLocalExtractor } from "../../src/domain/forge/extract/local";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { distill, storeAll } from "../graph/helpers";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const BATCH = 4;
const prefix = `${TEST_QUEUE_PREFIX}-kdistill`;
let t: TestApp;
let tenant: Tenant;

const workers = chaosWorkers({
  SVC_QUEUE_PREFIX: prefix,
  DISTILL_ENABLED: "true",
  DISTILL_BATCH_SIZE: String(BATCH),
});

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix, DISTILL_ENABLED: true, DISTILL_BATCH_SIZE: BATCH });
  tenant = await t.tenant("kill-distill");
});
afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 30_000);

const PEOPLE = [
  "Alice Moreau",
  "Bruno Diaz",
  "Chen Wei",
  "Dana Scully",
  "Emeka Obi",
  "Farah Khan",
  "Goran Petrov",
  "Hana Sato",
  "Ivan Horvat",
  "Julia Roberts",
  "Kofi Mensah",
  "Lena Berg",
];
const ORGS = ["Acme", "Initech", "Globex", "Umbrella", "Hooli"];
const TOOLS = ["Postgres", "Redis", "Kafka", "Terraform", "Grafana", "Docker", "Vim"];

/**
 * Repeated, reinforcing facts; every person keeps one employer, so the outcome does not depend on
 * order.
 */
function corpus(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const p = PEOPLE[i % PEOPLE.length]!;
    const q = PEOPLE[(i * 7 + 3) % PEOPLE.length]!;
    switch (i % 3) {
      case 0:
        return `${p} works at ${ORGS[PEOPLE.indexOf(p) % ORGS.length]}.`;
      case 1:
        return `${p} uses ${TOOLS[i % TOOLS.length]} every day.`;
      default:
        return `${p} knows ${q === p ? PEOPLE[(i + 1) % PEOPLE.length] : q}.`;
    }
  });
}

type Snapshot = {
  memos: string[];
  edges: string[];
  memoSources: number;
  edgeSources: number;
  distilled: number;
  distinctDistilled: number;
};

const snapshot = (agent: string) =>
  withTenant(t.deps.db, tenant.orgId, async (tx): Promise<Snapshot> => {
    const memos = await tx<
      { k: string }[]
    >`SELECT memo_type || ':' || name || ':' || mention_count || ':' || coalesce(retired_reason, '-') AS k FROM memos WHERE agent_id = ${agent} ORDER BY 1`;
    const edges = await tx<{ k: string }[]>`
    SELECT s.name || ' -' || e.relation || '-> ' || d.name || ':' || e.mention_count || ':' || coalesce(e.expired_reason, '-') || ':' ||
      (SELECT count(*) FROM edge_sources x WHERE x.edge_id = e.edge_id) AS k
    FROM edges e JOIN memos s ON s.memo_id = e.src_memo_id JOIN memos d ON d.memo_id = e.dst_memo_id WHERE e.agent_id = ${agent} ORDER BY 1`;
    const [c] = await tx`SELECT
      (SELECT count(*)::int FROM memo_sources x JOIN memos m USING (memo_id) WHERE m.agent_id = ${agent}) AS memo_sources,
      (SELECT count(*)::int FROM edge_sources x JOIN edges e USING (edge_id) WHERE e.agent_id = ${agent}) AS edge_sources,
      (SELECT count(*)::int FROM distilled_memories x JOIN memories m USING (memory_id) WHERE m.agent_id = ${agent}) AS distilled,
      (SELECT count(DISTINCT (x.memory_id, x.version))::int FROM distilled_memories x JOIN memories m USING (memory_id) WHERE m.agent_id = ${agent}) AS distinct_distilled`;
    return {
      memos: memos.map((r) => r.k),
      edges: edges.map((r) => r.k),
      memoSources: c!.memo_sources,
      edgeSources: c!.edge_sources,
      distilled: c!.distilled,
      distinctDistilled: c!.distinct_distilled,
    };
  });

const jobRow = (jobId: string) => t.request("GET", `/v1/distill/${jobId}`, { key: tenant.key });

test("kill -9 mid-distill, then a second worker: no duplicates, and the graph equals one uninterrupted run", async () => {
  const N = 480;
  const contents = corpus(N);
  const killedIds = await storeAll(t, tenant, "killed", contents);
  const cleanIds = await storeAll(t, tenant, "clean", contents);

  const created = await t.request("POST", "/v1/distill", {
    key: tenant.key,
    body: { agent_id: "killed", memory_ids: killedIds },
  });
  expect(created.status, show(created)).toBe(202);
  const jobId: string = created.body.job_id;
  const first = workers.spawn();
  await eventually(
    async () => ((await jobRow(jobId)).body.progress?.done ?? 0) >= 5 * BATCH,
    "the distill to be under way",
    60_000,
  );
  first.kill("SIGKILL");
  await first.exited;

  const afterKill = await jobRow(jobId);
  expect(afterKill.body.state, "the killed worker stopped before finishing").toBe("running");
  const done: number = afterKill.body.progress.done;
  expect(done).toBeLessThan(N);
  expect(done % BATCH, "only whole batches were committed").toBe(0);
  const partial = await snapshot("killed");
  expect(partial.distilled, "distilled_memories committed with their batch").toBe(done);

  workers.spawn();
  const final = await eventually(
    async () => {
      const res = await jobRow(jobId);
      return ["succeeded", "failed", "rejected"].includes(res.body.state) ? res.body : null;
    },
    "the stalled distill to run again and settle",
    90_000,
  );
  expect(final).toMatchObject({ state: "succeeded", progress: { done: N, total: N } });

  const clean = await distill(t, tenant, createLocalExtractor(), "clean", cleanIds);
  expect(clean.state).toBe("succeeded");
  const killed = await snapshot("killed");
  const reference = await snapshot("clean");
  expect(killed.distilled).toBe(N);
  expect(killed.distinctDistilled).toBe(N);
  expect(killed.edges.length).toBeGreaterThan(30);
  expect(killed).toEqual(reference);
  // Counters match what committed: the sum of the per-batch audit rows (written in each batch's
  // transaction).
  const [audited] = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`
    SELECT sum((detail->>'memos_created')::int)::int AS memos_created, sum((detail->>'memos_reused')::int)::int AS memos_reused,
      sum((detail->>'edges_created')::int)::int AS edges_created, sum((detail->>'edges_reinforced')::int)::int AS edges_reinforced
    FROM (SELECT detail FROM audit_log WHERE operation = 'distill' UNION ALL SELECT detail FROM audit_pending WHERE operation = 'distill') a
    WHERE detail->>'job_id' = ${jobId} AND detail ? 'versions'`,
  );
  expect(final.counts).toMatchObject(audited!);
  expect(final.counts).toMatchObject({
    memos_created: killed.memos.length,
    edges_created: killed.edges.length,
  });
}, 180_000);
