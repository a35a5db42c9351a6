// svc.enforce_retention_caps: forgets each agent's current memories beyond
// MEMORY_RETENTION_CAP_PER_AGENT, lowest importance then oldest first, through the forget path
// (reason "retention").
import { Type as T } from "@sinclair/typebox";
import { enforceRetentionCaps } from "../../domain/memories/retention";
import { defineTask } from "../define-task";

export const enforceRetentionCapsTask = defineTask({
  name: "svc.enforce_retention_caps",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 60_000,
  schedule: { id: "enforce-retention-caps", everyMs: () => 6 * 3_600_000 },
  run: async (_payload, deps) => ({
    forgotten: await enforceRetentionCaps(deps.db, deps.config.MEMORY_RETENTION_CAP_PER_AGENT),
  }),
});
