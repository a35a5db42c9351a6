// `svc worker`, `svc beat` and `svc refine schedule` as real processes: the beat registers the
// schedules, the worker runs them (its ping makes /v1/worker/health green, outcomes show on
// WORKER_METRICS_PORT), both exit 0 on SIGTERM and refuse clearly without VALKEY_URL; the refine
// CLI opts an org in and out.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withSystem } from "../../src/data/with-system";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, type TestApp } from "../harness/app";
import { BUN, freePort, MAIN, runSvc, serviceEnv } from "../harness/process";
import { eventually } from "./wait";

const prefix = `${TEST_QUEUE_PREFIX}-cli`;
let t: TestApp;

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

test("svc beat + svc worker drive the worker pulse, then stop gracefully on SIGTERM", async () => {
  const metricsPort = freePort();
  const env = serviceEnv({ SVC_QUEUE_PREFIX: prefix, LOG_LEVEL: "info" });
  const beat = Bun.spawn([BUN, MAIN, "beat"], { env, stdout: "pipe", stderr: "pipe" });
  const worker = Bun.spawn([BUN, MAIN, "worker"], {
    env: { ...env, WORKER_METRICS_PORT: String(metricsPort) },
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    await eventually(
      async () => {
        const r = await t.request("GET", "/v1/worker/health");
        return r.status === 200 && r.body.worker_id.endsWith(`-${worker.pid}`);
      },
      "the worker's pulse",
      30_000,
    );
    const schedulerKeys = (await (t.deps.queue as BullmqQueue).queue.getJobSchedulers()).map(
      (s) => s.key,
    );
    expect(schedulerKeys).toContain("audit-drain");
    const metrics = await eventually(async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return text.includes('svc_task_runs_total{task="svc.worker_ping",outcome="completed"}')
        ? text
        : null;
    }, "the worker's own /metrics");
    expect(metrics).toContain('svc_queue_jobs{state="waiting"}');
  } finally {
    worker.kill("SIGTERM");
    beat.kill("SIGTERM");
  }
  const [workerCode, beatCode] = await Promise.all([worker.exited, beat.exited]);
  const workerLog = await new Response(worker.stdout).text();
  expect(workerCode, workerLog.slice(-1000)).toBe(0);
  expect(beatCode).toBe(0);
  expect(workerLog).toContain("worker stopped");
}, 60_000);

test("svc worker and svc beat without VALKEY_URL explain that svc serve runs them in embedded mode", async () => {
  for (const command of ["worker", "beat"]) {
    const env = serviceEnv();
    delete env.VALKEY_URL;
    const result = await runSvc([command], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("svc serve");
  }
});

test("svc refine schedule opts an org in and out; an unknown org is an error", async () => {
  const tenant = await t.tenant("refine-cli");
  const optedIn = () =>
    withSystem(
      t.deps.db,
      async (tx) =>
        (
          await tx`SELECT refine_opted_in_at IS NOT NULL AS on FROM orgs WHERE id = ${tenant.orgId}`
        )[0]!.on,
    );
  const on = await runSvc(["refine", "schedule", "--org", tenant.name], serviceEnv());
  expect(on.code, on.stderr).toBe(0);
  expect(JSON.parse(on.stdout)).toMatchObject({ org_id: tenant.orgId, refine_scheduled: true });
  expect(await optedIn()).toBe(true);
  const off = await runSvc(["refine", "schedule", "--org", tenant.name, "--off"], serviceEnv());
  expect(off.code, off.stderr).toBe(0);
  expect(await optedIn()).toBe(false);
  const unknown = await runSvc(
    ["refine", "schedule", "--org", "no-such-org-anywhere"],
    serviceEnv(),
  );
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("no org named");
});
