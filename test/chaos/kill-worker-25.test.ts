// T5: SIGKILL `svc worker` at a random point of an audit drain, 25 times in a row, with new
// pending rows each cycle. After every kill the chain verifies; at quiescence audit_pending is
// empty, every pending row was logged exactly once, and seq is gapless (no duplicates, no holes).
// On a busy machine a cycle takes seconds (a worker boots each time): the bounds are hang
// detectors, not speed checks, and the loop stops when the test ends so a timed-out run never
// outlives its file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { verifyOrgChain } from "../../src/domain/audit/list";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { rng } from "../../bench/lib/corpus";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { runSvc, serviceEnv } from "../harness/process";

const CYCLES = 25 * Number(process.env.SVC_TEST_LONG ?? "1");
const ROWS_PER_CYCLE = 4000;
const SEED = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);
const prefix = `${TEST_QUEUE_PREFIX}-kill25`;
const workers = chaosWorkers({ SVC_QUEUE_PREFIX: prefix });

let t: TestApp;
let tenant: Tenant;
let ended = false;

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix });
  tenant = await t.tenant("kill25");
});
afterAll(async () => {
  ended = true;
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 30_000);

const counts = () =>
  withTenant(t.deps.db, tenant.orgId, async (tx) => {
    const [row] =
      await tx`SELECT (SELECT count(*)::int FROM audit_log) AS logged, (SELECT count(*)::int FROM audit_pending) AS pending,
    (SELECT count(DISTINCT seq)::int FROM audit_log) AS seqs, (SELECT coalesce(max(seq), 0)::int FROM audit_log) AS max_seq,
    (SELECT count(*)::int FROM (SELECT unnest(target_ids) AS id FROM audit_log WHERE operation = 'store' GROUP BY 1 HAVING count(*) > 1) d) AS duplicated_targets`;
    return row as {
      logged: number;
      pending: number;
      seqs: number;
      max_seq: number;
      duplicated_targets: number;
    };
  });

describe(`SIGKILL the worker mid-drain × ${CYCLES}`, () => {
  test("chain verifies after every kill; at the end pending is empty, every row logged once, seq gapless", async () => {
    console.log(`kill-worker-25 seed=${SEED} (replay with SVC_TEST_SEED=${SEED})`);
    const random = rng(SEED);
    const queue = (t.deps.queue as BullmqQueue).queue;
    const expected = (await counts()).pending; // the tenant's own key creation is audited too
    let inserted = 0;
    let verified = 0;
    let midDrain = 0;
    for (let cycle = 0; cycle < CYCLES && !ended; cycle++) {
      await withTenant(
        t.deps.db,
        tenant.orgId,
        (tx) => tx`
        INSERT INTO audit_pending (org_id, operation, agent_id, target_ids, detail)
        SELECT ${tenant.orgId}, 'store', 'agent', ARRAY[${`mem_c${cycle}_`}::text || g], jsonb_build_object('cycle', ${cycle}::int, 'n', g)
        FROM generate_series(1, ${ROWS_PER_CYCLE}) AS g`,
      );
      inserted += ROWS_PER_CYCLE;
      const worker = workers.spawn();
      await queue.add(
        "svc.audit_drain",
        { org_id: tenant.orgId },
        { attempts: 5, backoff: { type: "fixed", delay: 200 } },
      );
      // Kill at a random point once the drain is under way (the worker takes ~1 s to boot).
      const before = (await counts()).logged;
      const startBy = Date.now() + 60_000;
      while ((await counts()).logged === before && Date.now() < startBy) await Bun.sleep(10);
      await Bun.sleep(Math.floor(random() * 40)); // a quiet box drains a cycle in ~100 ms: kill well inside it
      worker.kill("SIGKILL");
      await worker.exited;
      if ((await counts()).pending > 0) midDrain++;
      // In process: the same check `svc audit verify` runs (the CLI is run once, at the end).
      const verdict = await verifyOrgChain(t.deps.db, tenant.orgId);
      if (verdict.ok) verified++;
      else console.log(`cycle ${cycle}: verify failed: ${JSON.stringify(verdict)}`);
    }
    const mid = await counts();
    const finisher = workers.spawn();
    await queue.add("svc.audit_drain", { org_id: tenant.orgId }, { attempts: 5 });
    const deadline = Date.now() + 600_000;
    let final = await counts();
    while (final.pending > 0 && Date.now() < deadline && !ended) {
      await Bun.sleep(250);
      final = await counts();
      const jobs = await queue.getJobCounts("waiting", "active", "delayed");
      if (final.pending > 0 && (jobs.waiting ?? 0) + (jobs.active ?? 0) + (jobs.delayed ?? 0) === 0)
        await queue.add("svc.audit_drain", { org_id: tenant.orgId }, { attempts: 5 });
    }
    finisher.kill("SIGTERM");
    await finisher.exited;
    console.log(
      `kill-worker-25: ${CYCLES} kills (${midDrain} with rows still pending), chain verified ${verified}/${CYCLES}, logged before the finisher ${mid.logged}/${expected + inserted}, final ${JSON.stringify(final)}`,
    );
    expect(verified).toBe(CYCLES);
    expect(midDrain, "most kills must land while rows are still pending").toBeGreaterThanOrEqual(
      Math.ceil(CYCLES / 2),
    );
    expect(final.pending).toBe(0);
    expect(final.logged).toBe(expected + inserted);
    expect(final.seqs).toBe(final.logged);
    expect(final.max_seq).toBe(final.logged);
    expect(final.duplicated_targets).toBe(0);
    expect((await runSvc(["audit", "verify", "--org", tenant.orgId], serviceEnv())).code).toBe(0);
  }, 1_800_000);
});
