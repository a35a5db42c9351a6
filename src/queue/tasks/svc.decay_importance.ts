// svc.decay_importance: moving-average decay of importance on memories not accessed since the last
// run (formula in docs/memories.md); re-running within the same window changes nothing.
import { Type as T } from "@sinclair/typebox";
import { decayImportance } from "../../domain/memories/decay-importance";
import { defineTask } from "../define-task";

export const decayImportanceTask = defineTask({
  name: "svc.decay_importance",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 30_000,
  schedule: { id: "decay-importance", everyMs: () => 3_600_000 },
  run: async (_payload, deps) => ({
    decayed: await decayImportance(deps.db, new Date(), {
      halfLifeHours: deps.config.MEMORY_DECAY_HALF_LIFE_HOURS,
      floor: deps.config.MEMORY_DECAY_FLOOR,
    }),
  }),
});
