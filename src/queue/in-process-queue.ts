// The embedded-mode TaskQueue: jobs run in this process with the same retry policy and id
// deduplication as BullMQ (an id is taken until its job finishes). Jobs enqueued before a worker
// starts wait for it; nothing survives a restart (the beat re-creates periodic work, and PostgreSQL
// job rows are the source of truth for user-visible jobs).
import { backoffDelayMs } from "./define-task";
import { checkJobId } from "./job-id";
import type { EnqueueOptions, TaskName, TaskQueue } from "../domain/ports/task-queue";
import { taskDefinition } from "./registry";

export type JobHandler = (
  name: TaskName,
  payload: Record<string, unknown>,
  info: { jobId: string; attempt: number; finalAttempt: boolean },
) => Promise<unknown>;

type Job = {
  id: string;
  name: TaskName;
  payload: Record<string, unknown>;
  attemptsMade: number;
  dedupe: boolean;
};

export class InProcessQueue implements TaskQueue {
  readonly backend = "in-process" as const;
  private readonly ready: Job[] = [];
  private readonly pendingIds = new Set<string>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly running = new Set<Promise<void>>();
  private handler: JobHandler | null = null;
  private sequence = 0;
  private closed = false;
  private failedCount = 0;
  private completedCount = 0;

  constructor(private readonly concurrency: number) {}

  async enqueue(
    name: TaskName,
    payload: Record<string, unknown>,
    options: EnqueueOptions = {},
  ): Promise<void> {
    taskDefinition(name);
    if (this.closed) throw new Error("task queue is closed");
    const dedupe = options.jobId !== undefined;
    const id = dedupe ? checkJobId(options.jobId!) : `job-${++this.sequence}`;
    if (dedupe && this.pendingIds.has(id)) return;
    this.pendingIds.add(id);
    this.later({ id, name, payload, attemptsMade: 0, dedupe }, options.delayMs ?? 0);
  }

  /** Begins executing jobs (the worker role of `svc serve` in embedded mode). */
  start(handler: JobHandler): void {
    this.handler = handler;
    this.pump();
  }

  /** Stops taking jobs and waits for the running ones to finish. */
  async stop(): Promise<void> {
    this.handler = null;
    await Promise.allSettled([...this.running]);
  }

  counts() {
    return {
      waiting: this.ready.length,
      active: this.running.size,
      delayed: this.timers.size,
      failed: this.failedCount,
      completed: this.completedCount,
      prioritized: 0,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.stop();
  }

  private later(job: Job, delayMs: number): void {
    if (delayMs <= 0) {
      this.ready.push(job);
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.ready.push(job);
      this.pump();
    }, delayMs);
    this.timers.add(timer);
  }

  private pump(): void {
    while (
      this.handler &&
      !this.closed &&
      this.running.size < this.concurrency &&
      this.ready.length > 0
    ) {
      const job = this.ready.shift()!;
      const run = this.execute(this.handler, job).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async execute(handler: JobHandler, job: Job): Promise<void> {
    const definition = taskDefinition(job.name);
    try {
      await handler(job.name, job.payload, {
        jobId: job.id,
        attempt: job.attemptsMade + 1,
        finalAttempt: job.attemptsMade + 1 >= definition.attempts,
      });
      this.completedCount++;
      this.pendingIds.delete(job.id);
    } catch (error) {
      const attemptsMade = job.attemptsMade + 1;
      if (
        attemptsMade >= definition.attempts ||
        (error as { unrecoverable?: boolean }).unrecoverable ||
        this.closed
      ) {
        this.failedCount++;
        this.pendingIds.delete(job.id);
        return;
      }
      this.later({ ...job, attemptsMade }, backoffDelayMs(definition, attemptsMade));
    }
  }
}
