// Each of the worker's own tasks, delivered through BullMQ on the real Valkey to a real worker,
// with its effect checked on PostgreSQL; plus redelivery idempotency and refusal of malformed
// payloads.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { claimDueRefineOrgs } from "../../src/data/queries/forge/refine/schedule";
import { withSystem } from "../../src/data/with-system";
import { withTenant } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { ensureAuditPartitions } from "../../src/domain/audit/partitions";
import { recordAudit } from "../../src/domain/audit/record";
import { newId } from "../../src/lib/ids";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { show, TEST_QUEUE_PREFIX, privateTestApp, type TestApp } from "../harness/app";
import { eventually } from "./wait";

let t: TestApp;
let worker: RunningWorker;

beforeAll(async () => {
  t = await privateTestApp("tasks", {
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-tasks`,
    REFINE_BEAT_INTERVAL_SECONDS: 3600,
    INGEST_JOB_STUCK_SECONDS: 60,
    JOB_MAX_ATTEMPTS: 3,
  });
  worker = await startWorker(t.deps);
});

afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

const jobRow = (orgId: string, jobId: string) =>
  withTenant(
    t.deps.db,
    orgId,
    async (tx) =>
      (await tx`SELECT state, error, attempts FROM jobs WHERE job_id = ${jobId}`)[0] as
        | { state: string; error: string | null; attempts: number }
        | undefined,
  );

const finished = (orgId: string, jobId: string) =>
  eventually(async () => {
    const row = await jobRow(orgId, jobId);
    return row && row.state !== "queued" && row.state !== "running" ? row : null;
  }, `job ${jobId} to finish`);

test("svc.worker_ping writes this worker's pulse and GET /v1/worker/health answers 200", async () => {
  const before = new Date(Date.now() - 1000);
  await t.deps.queue.enqueue("svc.worker_ping", {});
  // Other test files' workers write pulses to the same run database, so look for this process's own
  // row.
  const pulse = await eventually(
    async () =>
      (
        await withSystem(
          t.deps.db,
          (tx) =>
            tx<
              { seen_at: Date }[]
            >`SELECT seen_at FROM worker_heartbeats WHERE worker_id LIKE ${`%-${process.pid}`} AND seen_at >= ${before}`,
        )
      )[0] ?? null,
    "this worker's pulse",
  );
  expect(pulse.seen_at.getTime()).toBeGreaterThanOrEqual(before.getTime());
  const res = await t.request("GET", "/v1/worker/health");
  expect(res.status, show(res)).toBe(200);
});

test("svc.audit_drain moves an org's pending rows into its chain, once, even when delivered twice", async () => {
  const tenant = await t.tenant("drain");
  await withTenant(t.deps.db, tenant.orgId, (tx) =>
    recordAudit(
      tx,
      systemActor(tenant.orgId),
      [1, 2, 3].map((i) => ({ operation: "store" as const, agentId: "a", targetIds: [`m${i}`] })),
    ),
  );
  await t.deps.queue.enqueue("svc.audit_drain", { org_id: tenant.orgId });
  await t.deps.queue.enqueue("svc.audit_drain", {});
  const res = await eventually(
    async () => {
      const r = await t.request("GET", "/v1/audit?limit=50", { key: tenant.key });
      return r.body?.items?.length >= 3 ? r : null;
    },
    "drained rows",
    20_000,
  );
  const seqs = res.body.items
    .map((row: { seq: number }) => Number(row.seq))
    .sort((a: number, b: number) => a - b);
  expect(seqs.slice(0, 3)).toEqual([1, 2, 3]);
  const pending = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`SELECT count(*)::int AS n FROM audit_pending`,
  );
  expect(pending[0]!.n).toBe(0);
  await t.deps.queue.enqueue("svc.audit_drain", { org_id: tenant.orgId });
  await Bun.sleep(300);
  const again = await t.request("GET", "/v1/audit?limit=50", { key: tenant.key });
  expect(again.body.items.length, show(again)).toBe(res.body.items.length);
});

test("svc.ensure_audit_partitions creates this and next month's partitions, each with forced RLS", async () => {
  const [, nextMonth] = await ensureAuditPartitions(t.deps.db, new Date());
  await t.owner`DROP TABLE ${t.owner(nextMonth!)}`; // DDL: the owner's, not the serving login's
  const partitionsNow = () =>
    withSystem(
      t.deps.db,
      (tx) => tx`SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'audit_log'::regclass`,
    );
  expect((await partitionsNow()).some((r) => r.relname === nextMonth)).toBe(false);
  await t.deps.queue.enqueue("svc.ensure_audit_partitions", {});
  const rows = await eventually(async () => {
    const r = await partitionsNow();
    return r.some((p) => p.relname === nextMonth) ? r : null;
  }, "next month's partition");
  for (const r of rows)
    expect([r.relname, r.relrowsecurity, r.relforcerowsecurity]).toEqual([r.relname, true, true]);
});

test("due opted-in orgs are claimed oldest (never scheduled first) first, and not again within the interval", async () => {
  const [never, older, newer] = [
    await t.tenant("claim-never"),
    await t.tenant("claim-old"),
    await t.tenant("claim-new"),
  ];
  await withSystem(t.deps.db, async (tx) => {
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = NULL WHERE id = ${never.orgId}`;
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '9 days' WHERE id = ${older.orgId}`;
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '8 days' WHERE id = ${newer.orgId}`;
  });
  const mine = new Set([never.orgId, older.orgId, newer.orgId]);
  const claimed: string[] = [];
  for (let i = 0; i < 20 && claimed.length < 3; i++) {
    for (const id of await withSystem(t.deps.db, (tx) => claimDueRefineOrgs(tx, 7 * 86400, 1)))
      if (mine.has(id)) claimed.push(id);
  }
  expect(claimed).toEqual([never.orgId, older.orgId, newer.orgId]);
  expect(
    (await withSystem(t.deps.db, (tx) => claimDueRefineOrgs(tx, 7 * 86400, 100))).filter((id) =>
      mine.has(id),
    ),
  ).toEqual([]);
});

test("svc.refine_scheduler_tick enqueues refine runs for opted-in orgs oldest first, once per interval; svc.refine_run self-rejects", async () => {
  const [older, newer, notOptedIn] = [
    await t.tenant("refine-a"),
    await t.tenant("refine-b"),
    await t.tenant("refine-c"),
  ];
  await withSystem(t.deps.db, async (tx) => {
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '3 hours' WHERE id = ${older.orgId}`;
    await tx`UPDATE orgs SET refine_opted_in_at = now(), refine_last_scheduled_at = now() - interval '2 hours' WHERE id = ${newer.orgId}`;
  });
  await t.deps.queue.enqueue("svc.refine_scheduler_tick", {});
  const rowsOf = (orgId: string) =>
    withTenant(
      t.deps.db,
      orgId,
      (tx) => tx`SELECT job_id, state, error, payload FROM jobs WHERE kind = 'refine'`,
    );
  const olderRows = await eventually(async () => {
    const r = await rowsOf(older.orgId);
    return r.length === 1 && r[0]!.state === "rejected" ? r : null;
  }, "older org's refine row");
  expect(olderRows[0]!.error).toContain("REFINE_ENABLED=false");
  expect(olderRows[0]!.payload).toMatchObject({
    trigger: "scheduler",
    agent_id: null,
    dry_run: false,
  });
  await eventually(async () => (await rowsOf(newer.orgId)).length === 1, "newer org's refine row");
  expect((await rowsOf(notOptedIn.orgId)).length).toBe(0);

  await t.deps.queue.enqueue("svc.refine_scheduler_tick", {});
  await Bun.sleep(500);
  expect((await rowsOf(older.orgId)).length).toBe(1);
});

test("svc.refine_run, svc.forge_distill and svc.ingest_run reject with the gate named, and a redelivery changes nothing", async () => {
  const tenant = await t.tenant("gates");
  const cases = [
    ["svc.refine_run", "REFINE_ENABLED=false"],
    ["svc.forge_distill", "DISTILL_ENABLED=false"],
    ["svc.ingest_run", "INGEST_ENABLED=false"],
  ] as const;
  for (const [task, reason] of cases) {
    const jobId = newId("job");
    await t.deps.queue.enqueue(task, { org_id: tenant.orgId, job_id: jobId });
    const row = await finished(tenant.orgId, jobId);
    expect(row.state).toBe("rejected");
    expect(row.error).toContain(reason);
    await t.deps.queue.enqueue(task, { org_id: tenant.orgId, job_id: jobId });
    await Bun.sleep(300);
    expect(await jobRow(tenant.orgId, jobId)).toEqual(row);
  }
});

test("svc.ingest_watchdog re-queues a row stuck past INGEST_JOB_STUCK_SECONDS and fails one out of attempts", async () => {
  const tenant = await t.tenant("watchdog");
  const [stuck, exhausted, fresh] = [newId("job"), newId("job"), newId("job")];
  await withTenant(t.deps.db, tenant.orgId, async (tx) => {
    await tx`INSERT INTO jobs (org_id, job_id, kind, state, attempts, heartbeat_at) VALUES
      (${tenant.orgId}, ${stuck}, 'ingest', 'running', 1, now() - interval '2 minutes'),
      (${tenant.orgId}, ${exhausted}, 'distill', 'running', 3, now() - interval '2 minutes'),
      (${tenant.orgId}, ${fresh}, 'ingest', 'running', 1, now())`;
  });
  await t.deps.queue.enqueue("svc.ingest_watchdog", {});
  const resurrected = await finished(tenant.orgId, stuck);
  expect(resurrected.state).toBe("rejected");
  expect(resurrected.attempts).toBe(2);
  const abandoned = await finished(tenant.orgId, exhausted);
  expect(abandoned.state).toBe("failed");
  expect(abandoned.error).toContain("3 attempts");
  expect((await jobRow(tenant.orgId, fresh))!.state).toBe("running");
});

test("a malformed payload fails the job at once (no retries) and is counted as invalid", async () => {
  const queue = t.deps.queue as BullmqQueue;
  const job = await queue.queue.add("svc.refine_run", { org_id: 42 }, { attempts: 5 });
  const state = await eventually(async () => {
    const s = await job.getState();
    return s === "failed" ? s : null;
  }, "failure");
  expect(state).toBe("failed");
  const reloaded = await queue.queue.getJob(job.id!);
  expect(reloaded!.attemptsMade).toBe(1);
  expect(reloaded!.failedReason).toContain("invalid payload");
  const metrics = await t.deps.metrics.registry.metrics();
  expect(metrics).toMatch(/svc_task_runs_total\{task="svc.refine_run",outcome="invalid"\} 1/);
  expect(metrics).toMatch(/svc_queue_jobs\{state="/);
});
