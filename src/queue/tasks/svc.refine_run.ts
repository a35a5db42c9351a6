// svc.refine_run: one refine pass for a tenant (API or scheduler); self-rejects when REFINE_ENABLED=false.
import { defineTask } from "../define-task";
import { JobRowPayload, settleJobRow } from "./job-row-task";

export const refineRunTask = defineTask({
  name: "svc.refine_run",
  payload: JobRowPayload,
  attempts: 5,
  backoffMs: 2000,
  run: (payload, deps) => settleJobRow(deps, payload, "refine", { enabled: deps.config.REFINE_ENABLED, variable: "REFINE_ENABLED" }),
});
