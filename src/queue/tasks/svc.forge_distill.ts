// svc.forge_distill: distill pipeline for a job row created by POST /v1/distill; self-rejects when DISTILL_ENABLED=false.
import { defineTask } from "../define-task";
import { JobRowPayload, settleJobRow } from "./job-row-task";

export const forgeDistillTask = defineTask({
  name: "svc.forge_distill",
  payload: JobRowPayload,
  attempts: 5,
  backoffMs: 2000,
  run: (payload, deps) => settleJobRow(deps, payload, "distill", { enabled: deps.config.DISTILL_ENABLED, variable: "DISTILL_ENABLED" }),
});
