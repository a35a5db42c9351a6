// The audit listener: a write becomes visible in GET /v1/audit without any beat (LISTEN + debounced
// drain), the fallback poll drains what no notification announced, and a killed LISTEN connection
// is re-established and triggers a catch-up drain.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startAuditListener } from "../../src/data/listen";
import { withSystem } from "../../src/data/with-system";
import { withTenant } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { drainAudit } from "../../src/domain/audit/drain";
import { recordAudit } from "../../src/domain/audit/record";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { testServingDatabaseUrl } from "../harness/env";
import { eventually } from "./wait";

let t: TestApp;

beforeAll(async () => {
  t = await testApp({
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-listen`,
    SVC_AUDIT_LISTEN_ENABLED: true,
  });
});

afterAll(async () => {
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

const write = (tenant: Tenant, target: string) =>
  withTenant(t.deps.db, tenant.orgId, (tx) =>
    recordAudit(tx, systemActor(tenant.orgId), {
      operation: "store",
      agentId: "a",
      targetIds: [target],
    }),
  );

const visible = async (tenant: Tenant, target: string) => {
  const r = await t.request("GET", "/v1/audit?limit=100", { key: tenant.key });
  return (
    r.status === 200 &&
    r.body.items.some((row: { target_ids: string[] }) => row.target_ids.includes(target))
  );
};

test("inside svc worker, every write becomes visible in GET /v1/audit with no beat running", async () => {
  const worker: RunningWorker = await startWorker(t.deps);
  try {
    const tenant = await t.tenant("listen");
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await write(tenant, `w${i}`);
      await eventually(() => visible(tenant, `w${i}`), `write ${i} to become visible`, 10_000);
      latencies.push(performance.now() - started);
    }
    latencies.sort((x, y) => x - y);
    console.log(
      `audit write-to-visible via listener: p50 ${latencies[10]!.toFixed(0)} ms, max ${latencies[19]!.toFixed(0)} ms (debounce ${t.config.SVC_AUDIT_LISTEN_DEBOUNCE_MS} ms, 50 ms polling granularity in this test)`,
    );
  } finally {
    await worker.close();
  }
});

test("the fallback poll drains rows whose notification was missed", async () => {
  const tenant = await t.tenant("poll");
  await write(tenant, "before-listener");
  let fullDrains = 0;
  // The first full drain is the one every (re)LISTEN triggers; only the later ones come from the
  // poll.
  const listener = startAuditListener({
    url: testServingDatabaseUrl(),
    log: t.deps.log,
    debounceMs: 10,
    fallbackPollMs: 300,
    drain: async (orgIds) => {
      if (orgIds !== null || ++fullDrains === 1) return 0;
      return (await drainAudit(t.deps.db)).drained;
    },
  });
  try {
    await eventually(
      () => visible(tenant, "before-listener"),
      "the poll to drain the earlier write",
      10_000,
    );
    expect(fullDrains).toBeGreaterThanOrEqual(2);
  } finally {
    await listener.close();
  }
});

test("after its connection is killed the listener reconnects, catches up, and keeps reacting to writes", async () => {
  const tenant = await t.tenant("reconnect");
  const listener = startAuditListener({
    url: testServingDatabaseUrl(),
    log: t.deps.log,
    debounceMs: 10,
    fallbackPollMs: 3_600_000,
    drain: async (orgIds) => {
      if (orgIds === null) return (await drainAudit(t.deps.db)).drained;
      let n = 0;
      for (const orgId of orgIds) n += (await drainAudit(t.deps.db, { orgId })).drained;
      return n;
    },
  });
  try {
    await eventually(async () => listener.listens() >= 1, "LISTEN");
    const killed = await withSystem(
      t.deps.db,
      (tx) => tx`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE application_name = 'svc-audit-listener' AND datname = current_database()`,
    );
    expect(killed.length).toBeGreaterThan(0);
    await write(tenant, "while-down");
    await eventually(
      async () => listener.listens() >= 2,
      "the LISTEN to be re-established",
      15_000,
    );
    await eventually(() => visible(tenant, "while-down"), "the catch-up drain", 10_000);
    await write(tenant, "after-reconnect");
    await eventually(
      () => visible(tenant, "after-reconnect"),
      "a notification after reconnect",
      10_000,
    );
  } finally {
    await listener.close();
  }
});
