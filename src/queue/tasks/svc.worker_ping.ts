// svc.worker_ping: writes this worker's pulse, which GET /v1/worker/health reads (fresh = at most
// 60 s old).
import { hostname } from "node:os";
import { Type as T } from "@sinclair/typebox";
import { recordWorkerPulse } from "../../data/queries/health/health";
import { defineTask } from "../define-task";

export const WORKER_ID = `${hostname()}-${process.pid}`;

export const workerPingTask = defineTask({
  name: "svc.worker_ping",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 1,
  backoffMs: 1000,
  schedule: { id: "worker-ping", everyMs: () => 15_000 },
  run: async (_payload, deps) => {
    await recordWorkerPulse(deps.db.primary, WORKER_ID, {
      pid: process.pid,
      queue: deps.queue.backend,
      database: deps.db.kind,
    });
    return { worker_id: WORKER_ID };
  },
});
