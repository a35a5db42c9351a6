// svc.refine_scheduler_tick with REFINE_ENABLED: due opted-in tenants get a refine job with the
// default passes, oldest last run first; a tenant whose token budget is spent is skipped until its
// next turn; the jobs then run to completion on a real worker.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withSystem } from "../../src/data/with-system";
import { withTenant } from "../../src/data/with-tenant";
import { dayKey } from "../../src/domain/budgets/periods";
import { scheduleDueRefines } from "../../src/domain/forge/refine/schedule";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { TEST_QUEUE_PREFIX, testApp, type TestApp } from "../harness/app";
import { settled } from "../http/refine/helpers";

let t: TestApp;
let worker: RunningWorker;

beforeAll(async () => {
  t = await testApp({
    REFINE_ENABLED: true,
    REFINE_BEAT_INTERVAL_SECONDS: 3600,
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-rsched`,
  });
  worker = await startWorker(t.deps);
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

test("the tick schedules due tenants oldest first, skips one over its budget, and the runs complete", async () => {
  const [older, newer, broke, optedOut] = [
    await t.tenant("sched-old"),
    await t.tenant("sched-new"),
    await t.tenant("sched-broke"),
    await t.tenant("sched-out"),
  ];
  await withSystem(t.deps.db, async (tx) => {
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '5 hours' WHERE id = ${older.orgId}`;
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '4 hours' WHERE id = ${newer.orgId}`;
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '6 hours' WHERE id = ${broke.orgId}`;
  });
  await withTenant(t.deps.db, broke.orgId, async (tx) => {
    await tx`INSERT INTO tenant_budgets (org_id, daily_tokens) VALUES (${broke.orgId}, 100)`;
    await tx`INSERT INTO usage_counters (org_id, period, tokens) VALUES (${broke.orgId}, ${dayKey(new Date())}, 100)`;
  });
  const mine = new Set([older.orgId, newer.orgId, broke.orgId, optedOut.orgId]);
  const result = await scheduleDueRefines(t.deps);
  expect((result.org_ids ?? []).filter((id) => mine.has(id))).toEqual([older.orgId, newer.orgId]);
  expect((result.skipped_over_budget ?? []).filter((id) => mine.has(id))).toEqual([broke.orgId]);

  for (const tenant of [older, newer]) {
    const job = result.jobs!.find((j) => j.org_id === tenant.orgId)!;
    const status = await settled(t, tenant.key, job.job_id);
    expect(status.state, JSON.stringify(status)).toBe("succeeded");
    expect(status.trigger).toBe("scheduler");
    expect(status.passes.map((p: { name: string }) => p.name)).toEqual([
      "dedupe",
      "reweight",
      "prune",
    ]); // REFINE_DEFAULT_PASSES
    const audit = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) =>
        tx`SELECT detail->>'phase' AS phase, key_id FROM audit_pending WHERE operation = 'refine' ORDER BY id`,
    );
    expect([...audit]).toEqual([
      { phase: "requested", key_id: null },
      { phase: "succeeded", key_id: null },
    ]);
  }
  const brokeJobs = await withTenant(
    t.deps.db,
    broke.orgId,
    (tx) => tx`SELECT count(*)::int AS n FROM jobs WHERE kind = 'refine'`,
  );
  expect(brokeJobs[0]!.n).toBe(0);
  // Within the interval nothing is due again.
  expect(((await scheduleDueRefines(t.deps)).org_ids ?? []).filter((id) => mine.has(id))).toEqual(
    [],
  );
}, 60_000);
