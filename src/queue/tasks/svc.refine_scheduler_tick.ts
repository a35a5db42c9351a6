// svc.refine_scheduler_tick: when REFINE_BEAT_INTERVAL_SECONDS > 0, creates a refine job row for
// each opted-in tenant that is due (oldest scheduled first) and within its budget, and enqueues
// svc.refine_run for it.
import { Type as T } from "@sinclair/typebox";
import { scheduleDueRefines } from "../../domain/forge/refine/schedule";
import { defineTask } from "../define-task";

export const refineSchedulerTickTask = defineTask({
  name: "svc.refine_scheduler_tick",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 5000,
  schedule: {
    id: "refine-scheduler-tick",
    // REFINE_BEAT_INTERVAL_SECONDS=0 turns the scheduled refines off.
    everyMs: (config) =>
      config.REFINE_BEAT_INTERVAL_SECONDS > 0 ? config.REFINE_BEAT_INTERVAL_SECONDS * 1000 : null,
  },
  run: (_payload, deps) => scheduleDueRefines(deps),
});
