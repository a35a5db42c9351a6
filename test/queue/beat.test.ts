// The beat on BullMQ: two beats upserting at once leave exactly one scheduler per schedule and one
// pending next run each (no double-firing); a schedule dropped from configuration is removed; with
// REFINE_BEAT_INTERVAL_SECONDS=0 there is no refine tick; a beat whose upsert fails stays up and
// tries again soon.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { schedulesOf, startBeat } from "../../src/queue/beat";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { createLogger } from "../../src/observability/log";
import { TEST_QUEUE_PREFIX, testApp, type TestApp } from "../harness/app";
import { TEST_VALKEY_URL } from "../harness/env";
import { eventually } from "./wait";

let a: TestApp;
let b: TestApp;
const prefix = `${TEST_QUEUE_PREFIX}-beat`;

beforeAll(async () => {
  a = await testApp({ SVC_QUEUE_PREFIX: prefix, REFINE_BEAT_INTERVAL_SECONDS: 600 });
  b = await testApp({ SVC_QUEUE_PREFIX: prefix, REFINE_BEAT_INTERVAL_SECONDS: 600 });
});

afterAll(async () => {
  await (a.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await a.close();
  await b.close();
});

test("the schedule follows the spec's table", () => {
  const byTask = Object.fromEntries(schedulesOf(a.config).map((s) => [s.task, s.everyMs]));
  expect(byTask).toEqual({
    "svc.audit_drain": 1000,
    "svc.sweep_expired_memories": 60_000,
    "svc.decay_importance": 3_600_000,
    "svc.enforce_retention_caps": 21_600_000,
    "svc.ensure_audit_partitions": 86_400_000,
    "svc.ingest_watchdog": 300_000,
    "svc.generate_embedding": 300_000,
    "svc.worker_ping": 15_000,
    "svc.refine_scheduler_tick": 600_000,
    "svc.deliver_webhooks": 30_000,
    "svc.refresh_statistics": 600_000,
  });
  expect(
    schedulesOf({ ...a.config, REFINE_BEAT_INTERVAL_SECONDS: 0 }).some(
      (s) => s.task === "svc.refine_scheduler_tick",
    ),
  ).toBe(false);
});

test("two beats starting together register each schedule once, with a single pending next run", async () => {
  const [beatA, beatB] = await Promise.all([startBeat(a.deps), startBeat(b.deps)]);
  const again = await startBeat(a.deps);
  const queue = (a.deps.queue as BullmqQueue).queue;
  const schedulers = await queue.getJobSchedulers();
  const expected = schedulesOf(a.config)
    .map((s) => s.id)
    .sort();
  expect(schedulers.map((s) => s.key).sort()).toEqual(expected);
  const pending = [...(await queue.getJobs(["delayed", "waiting", "prioritized"]))];
  const perScheduler = new Map<string, number>();
  for (const job of pending) {
    const key = job.repeatJobKey ?? "";
    perScheduler.set(key, (perScheduler.get(key) ?? 0) + 1);
  }
  for (const id of expected) expect([id, perScheduler.get(id)]).toEqual([id, 1]);
  await Promise.all([beatA.close(), beatB.close(), again.close()]);
});

test("a schedule no longer configured is removed by the next beat", async () => {
  const queue = (a.deps.queue as BullmqQueue).queue;
  const c = await testApp({ SVC_QUEUE_PREFIX: prefix, REFINE_BEAT_INTERVAL_SECONDS: 0 });
  const beat = await startBeat(c.deps);
  const keys = (await queue.getJobSchedulers()).map((s) => s.key);
  expect(keys).not.toContain("refine-scheduler-tick");
  expect(keys).toContain("audit-drain");
  await beat.close();
  await c.close();
});

test("a failed first upsert: the beat stays up and registers its schedules", async () => {
  const lines: string[] = [];
  const log = createLogger("info", { write: (line: string) => void lines.push(line) });
  const queue = new BullmqQueue(TEST_VALKEY_URL, `${prefix}-restarting`, log);
  // What ioredis rejects a command with when Valkey goes away mid-upsert (a chaos run's beat died
  // of it); the calls after it reach the real Valkey.
  const upsert = queue.queue.upsertJobScheduler.bind(queue.queue);
  let failures = 1;
  queue.queue.upsertJobScheduler = ((...args: Parameters<typeof upsert>) => {
    if (failures-- > 0)
      return Promise.reject(new Error("Reached the max retries per request limit (which is 1)."));
    return upsert(...args);
  }) as typeof upsert;
  try {
    const beat = await startBeat({ config: a.config, queue, log });
    expect(lines.some((l) => l.includes("beat could not assert schedules"))).toBe(true);
    const expected = schedulesOf(a.config)
      .map((s) => s.id)
      .sort();
    const keys = await eventually(
      async () => {
        const found = (await queue.queue.getJobSchedulers()).map((s) => s.key).sort();
        return found.length === expected.length && found;
      },
      "the beat to register its schedules on its next try",
      60_000,
    );
    expect(keys).toEqual(expected);
    await beat.close();
  } finally {
    await queue.queue.obliterate({ force: true });
    await queue.close();
  }
}, 120_000);
