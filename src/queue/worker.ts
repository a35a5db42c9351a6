// The worker role: processes every task from the queue (BullMQ or in-process), samples queue depth
// into /metrics, runs the audit listener when enabled, and stops gracefully (finish or release
// running jobs).
import { UnrecoverableError, Worker } from "bullmq";
import Redis from "ioredis";
import type { Ports } from "../domain/ports/ports";
import { startAuditListener, type AuditListener } from "../data/listen";
import { drainAudit } from "../domain/audit/drain";
import { brokerWarnings } from "./broker-check";
import { BullmqQueue, QUEUE_NAME } from "./bullmq-queue";
import { startQueueDepthSampler } from "./depth";
import { InProcessQueue } from "./in-process-queue";
import { createTaskRunner, UnrecoverableTaskError } from "./run-task";
import { listenForWebhookDeliveries } from "./webhook-wakeup";

export type RunningWorker = { close(): Promise<void> };

/**
 * After this long on SIGTERM, running BullMQ jobs are released (their lock lapses and another
 * worker re-runs them).
 */
const SHUTDOWN_GRACE_MS = 20_000;

export async function startWorker(deps: Ports): Promise<RunningWorker> {
  const runTask = createTaskRunner(deps);
  const { queue, config, log } = deps;
  let stopProcessing: () => Promise<void>;

  if (queue instanceof BullmqQueue) {
    // Workers block on Valkey and must wait out outages instead of failing commands.
    const connection = new Redis(config.VALKEY_URL!, { maxRetriesPerRequest: null });
    const worker = new Worker(
      QUEUE_NAME,
      async (job) => {
        const attempt = job.attemptsMade + 1;
        try {
          return await runTask(job.name, job.data, {
            jobId: job.id!,
            attempt,
            finalAttempt: attempt >= (job.opts.attempts ?? 1),
          });
        } catch (error) {
          if (error instanceof UnrecoverableTaskError) throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      {
        connection,
        prefix: queue.prefix,
        concurrency: config.WORKER_CONCURRENCY,
        lockDuration: config.WORKER_LOCK_DURATION_MS,
        stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
        maxStalledCount: 2,
      },
    );
    worker.on("error", (error) => log.warn({ msg: "worker error", err: error.message }));
    // Not awaited: with Valkey down at start this would wait for it, and the worker already does.
    void brokerWarnings(connection).then((warnings) =>
      warnings.forEach((warning) => log.warn({ msg: "valkey configuration", warning })),
    );
    worker.on("stalled", (jobId) =>
      log.warn({ msg: "job stalled (its worker died or froze); it will run again", job_id: jobId }),
    );
    stopProcessing = async () => {
      const graceful = worker.close();
      const timedOut = await Promise.race([
        graceful.then(() => false),
        Bun.sleep(SHUTDOWN_GRACE_MS).then(() => true),
      ]);
      if (timedOut) await worker.close(true);
      await connection.quit().catch(() => connection.disconnect());
    };
  } else if (queue instanceof InProcessQueue) {
    queue.start((name, payload, info) => runTask(name, payload, info));
    stopProcessing = () => queue.stop();
  } else {
    throw new Error(`no worker for queue backend ${queue.backend}`);
  }

  const depth = startQueueDepthSampler(deps);
  // Not awaited: with PostgreSQL down at start the beat's sweep delivers until the LISTEN is up.
  void listenForWebhookDeliveries(deps).catch((error) =>
    log.warn({ msg: "webhook listener not started", err: (error as Error).message }),
  );

  let listener: AuditListener | null = null;
  if (config.SVC_AUDIT_LISTEN_ENABLED && config.DATABASE_URL) {
    listener = startAuditListener({
      url: config.DATABASE_URL,
      log,
      debounceMs: config.SVC_AUDIT_LISTEN_DEBOUNCE_MS,
      fallbackPollMs: config.SVC_AUDIT_LISTEN_POLL_SECONDS * 1000,
      drain: async (orgIds) => {
        if (orgIds === null) return (await drainAudit(deps.db)).drained;
        let drained = 0;
        for (const orgId of orgIds) drained += (await drainAudit(deps.db, { orgId })).drained;
        return drained;
      },
    });
  }
  log.info({
    msg: "worker started",
    queue: queue.backend,
    concurrency: config.WORKER_CONCURRENCY,
    audit_listener: listener !== null,
  });

  return {
    async close() {
      depth.stop();
      await listener?.close();
      await stopProcessing();
    },
  };
}
