// A backfill requested while the tenant's backfill runs is not lost (issue 23, item 12): on BullMQ
// and on the in-process queue, the second request is queued instead of dropped as a duplicate of
// the running job's id, which left its rows to the five-minute schedule.
import { afterAll, expect, test } from "bun:test";
import { Worker } from "bullmq";
import { scheduleBackfill, type EmbedDeps } from "../../src/domain/memories/embed-or-defer";
import { createLogger } from "../../src/observability/log";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { InProcessQueue } from "../../src/queue/in-process-queue";
import { TEST_QUEUE_PREFIX } from "../harness/app";
import { TEST_VALKEY_URL } from "../harness/env";

const log = createLogger("silent");
/** scheduleBackfill reads only the queue and the log. */
const depsOf = (queue: EmbedDeps["queue"]) => ({ queue, log }) as unknown as EmbedDeps;
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A job handler that holds the first job until released. */
function holdFirst() {
  let started!: () => void;
  let release!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  const handler = async () => {
    if (++calls > 1) return;
    started();
    await released;
  };
  return { running, release, handler, calls: () => calls };
}

test("BullMQ: a backfill requested while one runs is queued", async () => {
  const queue = new BullmqQueue(TEST_VALKEY_URL, `${TEST_QUEUE_PREFIX}-backfill`, log);
  closers.push(async () => {
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });
  const hold = holdFirst();
  const { hostname, port } = new URL(TEST_VALKEY_URL);
  const connection = { host: hostname, port: Number(port), maxRetriesPerRequest: null };
  const prefix = `${TEST_QUEUE_PREFIX}-backfill`;
  const worker = new Worker(queue.queue.name, hold.handler, { connection, prefix });
  closers.push(() => worker.close());
  await scheduleBackfill(depsOf(queue), "org_busy");
  await hold.running;
  await scheduleBackfill(depsOf(queue), "org_busy");
  const pending = await queue.queue.getJobs(["waiting", "delayed"]);
  hold.release();
  expect(pending.map((j) => j.data)).toEqual([{ org_id: "org_busy" }]);
}, 30_000);

test("in-process queue: a backfill requested while one runs is queued", async () => {
  const queue = new InProcessQueue(2);
  closers.push(() => queue.close());
  const hold = holdFirst();
  queue.start(hold.handler);
  await scheduleBackfill(depsOf(queue), "org_busy");
  await hold.running;
  await scheduleBackfill(depsOf(queue), "org_busy");
  expect(queue.counts().delayed).toBe(1);
  hold.release();
}, 30_000);
