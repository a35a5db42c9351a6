// The production TaskQueue: a BullMQ producer on Valkey. Producers fail fast; workers (worker.ts)
// wait.
import { Queue } from "bullmq";
import Redis from "ioredis";
import type { Logger } from "../observability/log";
import { checkJobId } from "./job-id";
import type { EnqueueOptions, TaskName, TaskQueue } from "../domain/ports/task-queue";
import { taskDefinition } from "./registry";

export const QUEUE_NAME = "tasks";
const ENQUEUE_TIMEOUT_MS = 2000;
const KEEP_FINISHED = {
  completed: { count: 1000, age: 24 * 3600 },
  failed: { count: 5000, age: 7 * 24 * 3600 },
};

export type JobCounts = Record<
  "waiting" | "active" | "delayed" | "failed" | "completed" | "prioritized",
  number
>;

export class BullmqQueue implements TaskQueue {
  readonly backend = "bullmq" as const;
  readonly queue: Queue;
  private readonly connection: Redis;

  constructor(
    url: string,
    readonly prefix: string,
    log: Logger,
  ) {
    this.connection = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    let lastLogged = 0;
    this.connection.on("error", (error) => {
      if (Date.now() - lastLogged < 10_000) return;
      lastLogged = Date.now();
      log.warn({ msg: "queue producer connection error", err: error.message });
    });
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection, prefix });
    this.queue.on("error", () => {});
  }

  async enqueue(
    name: TaskName,
    payload: Record<string, unknown>,
    options: EnqueueOptions = {},
  ): Promise<void> {
    const definition = taskDefinition(name);
    const deduplicated = options.jobId !== undefined;
    const add = this.queue.add(name, payload, {
      jobId: deduplicated ? checkJobId(options.jobId!) : undefined,
      delay: options.delayMs,
      attempts: definition.attempts,
      backoff: { type: "exponential", delay: definition.backoffMs },
      // A kept finished job would block its id forever; deduplicated ids are only meant to collapse
      // pending work.
      removeOnComplete: deduplicated ? true : KEEP_FINISHED.completed,
      removeOnFail: deduplicated ? true : KEEP_FINISHED.failed,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `enqueue of ${name} timed out after ${ENQUEUE_TIMEOUT_MS} ms (Valkey unreachable?)`,
            ),
          ),
        ENQUEUE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([add, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async counts(): Promise<JobCounts> {
    return (await this.queue.getJobCounts(
      "waiting",
      "active",
      "delayed",
      "failed",
      "completed",
      "prioritized",
    )) as JobCounts;
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => {});
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
