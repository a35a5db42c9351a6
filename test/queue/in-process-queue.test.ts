// The embedded-mode queue keeps BullMQ's contract: retries with backoff, id deduplication while
// pending, bounded concurrency, jobs enqueued before start wait, and stop waits for running jobs.
import { expect, test } from "bun:test";
import { InProcessQueue } from "../../src/queue/in-process-queue";
import { InvalidJobIdError } from "../../src/queue/job-id";
import { eventually } from "./wait";

test("jobs enqueued before start run once started; a failing job is retried until it succeeds", async () => {
  const queue = new InProcessQueue(2);
  const attempts: number[] = [];
  await queue.enqueue("svc.audit_drain", { n: 1 });
  queue.start(async (_name, _payload, info) => {
    attempts.push(info.attempt);
    if (info.attempt < 2) throw new Error("transient");
  });
  await eventually(async () => queue.counts().completed === 1, "completion");
  expect(attempts).toEqual([1, 2]);
  await queue.close();
});

test("a job that always fails stops after the task's attempts and is counted failed", async () => {
  const queue = new InProcessQueue(1);
  let calls = 0;
  let sawFinal = false;
  queue.start(async (_n, _p, info) => {
    calls++;
    sawFinal ||= info.finalAttempt;
    throw new Error("always");
  });
  await queue.enqueue("svc.worker_ping", {}); // attempts: 1
  await eventually(async () => queue.counts().failed === 1, "failure");
  expect(calls).toBe(1);
  expect(sawFinal).toBe(true);
  await queue.close();
});

test("a deduplicated id collapses enqueues while its job is pending or running, and frees up afterwards", async () => {
  const queue = new InProcessQueue(4);
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  for (let i = 0; i < 5; i++) await queue.enqueue("svc.audit_drain", {}, { jobId: "drain-x" });
  queue.start(async () => {
    runs++;
    await gate;
  });
  await eventually(async () => queue.counts().active === 1, "running");
  await queue.enqueue("svc.audit_drain", {}, { jobId: "drain-x" });
  release();
  await eventually(
    async () => queue.counts().completed === 1 && queue.counts().active === 0,
    "completion",
  );
  expect(runs).toBe(1);
  await queue.enqueue("svc.audit_drain", {}, { jobId: "drain-x" });
  await eventually(async () => queue.counts().completed === 2, "second run");
  await queue.close();
});

test("concurrency is bounded and stop waits for running jobs", async () => {
  const queue = new InProcessQueue(3);
  let active = 0;
  let peak = 0;
  let finished = 0;
  queue.start(async () => {
    active++;
    peak = Math.max(peak, active);
    await Bun.sleep(20);
    active--;
    finished++;
  });
  for (let i = 0; i < 12; i++) await queue.enqueue("svc.worker_ping", {});
  await eventually(async () => queue.counts().active > 0, "start");
  await queue.stop();
  expect(active).toBe(0);
  expect(peak).toBeLessThanOrEqual(3);
  expect(finished).toBeGreaterThan(0);
  await queue.close();
});

test("job ids with ':' or only digits and unknown tasks are refused at enqueue", async () => {
  const queue = new InProcessQueue(1);
  await expect(queue.enqueue("svc.audit_drain", {}, { jobId: "a:b" })).rejects.toBeInstanceOf(
    InvalidJobIdError,
  );
  await expect(queue.enqueue("svc.audit_drain", {}, { jobId: "12345" })).rejects.toBeInstanceOf(
    InvalidJobIdError,
  );
  await expect(queue.enqueue("svc.nope" as never, {})).rejects.toThrow("unknown task");
  await queue.close();
});
