// svc.refine_run: one refine run for a tenant's job row (API or scheduler), resumable from its last
// committed batch; self-rejects when REFINE_ENABLED=false.
import { runRefineJob } from "../../domain/forge/refine/run";
import { defineTask } from "../define-task";
import { rejectDisabledJob } from "../../domain/jobs/settle";
import { JobRowPayload } from "../job-kinds";

const ATTEMPTS = 5;

export const refineRunTask = defineTask({
  name: "svc.refine_run",
  payload: JobRowPayload,
  attempts: ATTEMPTS,
  backoffMs: 2000,
  run: async (payload, deps, info) => {
    if (!deps.config.REFINE_ENABLED)
      return rejectDisabledJob(deps.db, payload.org_id, payload.job_id, "refine", "REFINE_ENABLED");
    return runRefineJob(deps, payload.org_id, payload.job_id, info.attempt >= ATTEMPTS);
  },
});
