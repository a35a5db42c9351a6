// A `svc worker` SIGKILLed in the middle of a long audit drain leaves nothing half-done: every
// committed batch is whole, the stalled job is picked up by a second worker once its (shortened)
// lock lapses, and the final chain equals a single run — every pending row exactly once, seq
// gapless, chain verifies. SIGTERM instead lets the running drain finish before the process exits
// 0.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, type TestApp } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { runSvc, serviceEnv } from "../harness/process";
import { eventually } from "../queue/wait";

const ROWS = 40_000;
const BATCH = 500; // drainAudit's default batch: one transaction per batch
const prefix = `${TEST_QUEUE_PREFIX}-kill`;
let t: TestApp;

const workers = chaosWorkers({ SVC_QUEUE_PREFIX: prefix });

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

async function seedPending(label: string) {
  const tenant = await t.tenant(label);
  const counts = () =>
    withTenant(t.deps.db, tenant.orgId, async (tx) => {
      const [row] =
        await tx`SELECT (SELECT count(*)::int FROM audit_log) AS logged, (SELECT count(*)::int FROM audit_pending) AS pending`;
      return row as { logged: number; pending: number };
    });
  const total = (await counts()).pending + ROWS; // creating the tenant's key was audited too
  await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`
    INSERT INTO audit_pending (org_id, operation, agent_id, target_ids, detail)
    SELECT ${tenant.orgId}, 'store', 'agent', ARRAY['mem_' || g], jsonb_build_object('n', g) FROM generate_series(1, ${ROWS}) AS g`,
  );
  return { tenant, counts, total };
}

test("SIGTERM mid-drain: the worker finishes the running job, then exits 0", async () => {
  const { tenant, counts, total } = await seedPending("term");
  const worker = workers.spawn();
  const job = await (t.deps.queue as BullmqQueue).queue.add(
    "svc.audit_drain",
    { org_id: tenant.orgId },
    { attempts: 3 },
  );
  await eventually(
    async () => (await counts()).logged >= BATCH,
    "the drain to be under way",
    30_000,
  );
  worker.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
  expect(await counts()).toEqual({ logged: total, pending: 0 });
  expect(await job.getState()).toBe("completed");
}, 120_000);

test("kill -9 mid-drain, then a second worker: the final state equals one run", async () => {
  const { tenant, counts, total } = await seedPending("kill");
  const first = workers.spawn();
  const queue = (t.deps.queue as BullmqQueue).queue;
  const job = await queue.add("svc.audit_drain", { org_id: tenant.orgId }, { attempts: 3 });
  const midway = await eventually(
    async () => {
      const c = await counts();
      return c.logged >= BATCH ? c : null;
    },
    "the drain to be under way",
    30_000,
  );
  first.kill("SIGKILL");
  await first.exited;

  const afterKill = await counts();
  expect(midway.logged).toBeLessThan(total);
  expect(afterKill.logged, "the killed worker stopped before finishing").toBeLessThan(total);
  expect(afterKill.logged % BATCH, "only whole batches were committed").toBe(0);
  expect(afterKill.logged + afterKill.pending).toBe(total);

  workers.spawn();
  await eventually(
    async () => (await job.getState()) === "completed",
    "the stalled job to run again and complete",
    60_000,
  );
  const reloaded = await queue.getJob(job.id!);
  expect(
    reloaded!.stalledCounter,
    "the job was recovered as stalled, not retried as failed",
  ).toBeGreaterThanOrEqual(1);

  const final = await counts();
  expect(final).toEqual({ logged: total, pending: 0 });
  const [seqs] = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`
    SELECT min(seq)::int AS lo, max(seq)::int AS hi, count(DISTINCT seq)::int AS distinct_seqs, count(DISTINCT target_ids[1])::int AS distinct_targets FROM audit_log`,
  );
  expect(seqs).toEqual({ lo: 1, hi: total, distinct_seqs: total, distinct_targets: total });
  const verified = await runSvc(["audit", "verify", "--org", tenant.orgId], serviceEnv());
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
}, 120_000);
