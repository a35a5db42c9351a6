// The task-queue port the core enqueues through: BullMQ on Valkey in production (src/queue/), an
// in-process runner in embedded mode. Delivery is at least once, so every task must be idempotent.
export const TASK_NAMES = [
  "svc.audit_drain",
  "svc.sweep_expired_memories",
  "svc.decay_importance",
  "svc.enforce_retention_caps",
  "svc.ensure_audit_partitions",
  "svc.refine_scheduler_tick",
  "svc.refine_run",
  "svc.erase_subject",
  "svc.ingest_watchdog",
  "svc.forge_distill",
  "svc.ingest_run",
  "svc.generate_embedding",
  "svc.worker_ping",
  "svc.deliver_webhooks",
  "svc.refresh_statistics",
] as const;

export type TaskName = (typeof TASK_NAMES)[number];

export type EnqueueOptions = {
  /**
   * Deduplication id: a second enqueue with the same id while the first is pending is dropped. No
   * ':' allowed.
   */
  jobId?: string;
  delayMs?: number;
};

export interface TaskQueue {
  readonly backend: "bullmq" | "in-process";
  enqueue(
    name: TaskName,
    payload: Record<string, unknown>,
    options?: EnqueueOptions,
  ): Promise<void>;
  close(): Promise<void>;
}
