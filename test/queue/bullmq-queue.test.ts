// The BullMQ producer: retry policy from the task definition on every job, deduplication by job id
// while pending, refusal of ids BullMQ cannot take, and a fast failure (not a hang) when Valkey is
// unreachable.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/observability/log";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { InvalidJobIdError } from "../../src/queue/job-id";
import { TEST_QUEUE_PREFIX } from "../harness/app";
import { TEST_VALKEY_URL } from "../harness/env";
import { freePort } from "../harness/process";

let queue: BullmqQueue;

beforeAll(() => {
  queue = new BullmqQueue(TEST_VALKEY_URL, `${TEST_QUEUE_PREFIX}-producer`, createLogger("silent"));
});

afterAll(async () => {
  await queue.queue.obliterate({ force: true });
  await queue.close();
});

test("jobs carry the task's attempts and exponential backoff", async () => {
  await queue.enqueue("svc.ensure_audit_partitions", {});
  const [job] = await queue.queue.getJobs(["waiting"]);
  expect(job!.name).toBe("svc.ensure_audit_partitions");
  expect(job!.opts.attempts).toBe(5);
  expect(job!.opts.backoff).toEqual({ type: "exponential", delay: 60_000 });
});

test("a job id collapses duplicates while the first is pending", async () => {
  for (let i = 0; i < 3; i++)
    await queue.enqueue(
      "svc.generate_embedding",
      { org_id: "org_x" },
      { jobId: "embed-backfill-org_x" },
    );
  const jobs = (await queue.queue.getJobs(["waiting", "delayed"])).filter(
    (j) => j.name === "svc.generate_embedding",
  );
  expect(jobs.map((j) => j.id)).toEqual(["embed-backfill-org_x"]);
});

test("ids with ':' or only digits are refused before reaching Valkey", async () => {
  await expect(queue.enqueue("svc.audit_drain", {}, { jobId: "drain:org" })).rejects.toBeInstanceOf(
    InvalidJobIdError,
  );
  await expect(queue.enqueue("svc.audit_drain", {}, { jobId: "0042" })).rejects.toBeInstanceOf(
    InvalidJobIdError,
  );
});

test("with Valkey unreachable, enqueue fails with a clear error instead of hanging", async () => {
  const dead = new BullmqQueue(
    `redis://127.0.0.1:${freePort()}`,
    "unreachable",
    createLogger("silent"),
  );
  try {
    await expect(dead.enqueue("svc.worker_ping", {})).rejects.toThrow(
      /timed out|ECONNREFUSED|Connection is closed|max retries/i,
    );
  } finally {
    await dead.close();
  }
});
