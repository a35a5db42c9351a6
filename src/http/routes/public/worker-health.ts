// GET /v1/worker/health: 200 while a worker pulse (svc.worker_ping) is fresh; 503 when stale or
// absent.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../operations/deps";
import { latestWorkerPulse } from "../../../data/queries/health/health";
import { AppError } from "../../../lib/errors";
import { Problem } from "../../../operations/schemas/common";

/**
 * A pulse is written every WORKER_PING_INTERVAL (15 s); four missed pulses mean the tier is down.
 */
export const WORKER_PULSE_MAX_AGE_SECONDS = 60;

export const workerHealthRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/worker/health",
    async () => {
      const pulse = await latestWorkerPulse(deps.db.read);
      const age = pulse ? (Date.now() - pulse.seen_at.getTime()) / 1000 : null;
      if (pulse === null || age === null)
        throw new AppError("service-unavailable", "No worker has reported a pulse yet");
      if (age > WORKER_PULSE_MAX_AGE_SECONDS)
        throw new AppError(
          "service-unavailable",
          `The last worker pulse is ${Math.round(age)} s old (limit ${WORKER_PULSE_MAX_AGE_SECONDS} s)`,
        );
      return {
        status: "ok" as const,
        worker_id: pulse.worker_id,
        last_pulse_at: pulse.seen_at,
        age_seconds: Math.round(age * 10) / 10,
      };
    },
    {
      response: {
        200: t.Object({
          status: t.Literal("ok"),
          worker_id: t.String(),
          last_pulse_at: t.Date(),
          age_seconds: t.Number(),
        }),
        503: Problem,
      },
      detail: { tags: ["Operations"], summary: "Worker tier pulse", security: [] },
    },
  );
