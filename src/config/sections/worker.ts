// Worker tier: queue naming, concurrency, lock timers, audit listener and watchdog timings.
import { Type as T } from "@sinclair/typebox";

export const workerSection = {
  SVC_QUEUE_PREFIX: T.String({
    default: "svc",
    pattern: "^[A-Za-z0-9_-]{1,64}$",
    description:
      "Valkey key prefix of the task queue; deployments (or test runs) sharing one Valkey use different prefixes",
  }),
  WORKER_CONCURRENCY: T.Integer({
    default: 4,
    minimum: 1,
    maximum: 64,
    description: "Jobs one `svc worker` runs at once",
  }),
  WORKER_LOCK_DURATION_MS: T.Integer({
    default: 30000,
    minimum: 500,
    description:
      "BullMQ job lock; a worker that stops renewing it for this long is considered dead and its job runs again",
  }),
  WORKER_STALLED_INTERVAL_MS: T.Integer({
    default: 30000,
    minimum: 500,
    description: "How often workers look for jobs whose lock lapsed",
  }),
  WORKER_METRICS_PORT: T.Integer({
    default: 0,
    minimum: 0,
    maximum: 65535,
    description: "`svc worker` serves /metrics on this port when > 0",
  }),
  SVC_AUDIT_LISTEN_POLL_SECONDS: T.Number({
    default: 60,
    exclusiveMinimum: 0,
    description: "Audit listener fallback poll: a full drain this often even without notifications",
  }),
  SVC_AUDIT_LISTEN_DEBOUNCE_MS: T.Integer({
    default: 50,
    minimum: 0,
    maximum: 10000,
    description: "Audit listener: notifications within this window share one drain",
  }),
  INGEST_JOB_STUCK_SECONDS: T.Integer({
    default: 900,
    minimum: 30,
    description:
      "svc.ingest_watchdog re-queues running job rows whose heartbeat is older than this",
  }),
  JOB_MAX_ATTEMPTS: T.Integer({
    default: 5,
    minimum: 1,
    maximum: 50,
    description: "Attempts of a job row before the watchdog marks it failed",
  }),
};
