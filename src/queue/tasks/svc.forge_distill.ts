// svc.forge_distill: the distill pipeline for a job row created by POST /v1/distill or a chained
// ingest; self-rejects when DISTILL_ENABLED=false. Idempotent: committed batches are skipped on a
// retry.
import { runDistillJob } from "../../domain/forge/distill/run";
import { defineTask } from "../define-task";
import { rejectDisabledJob } from "../../domain/jobs/settle";
import { JobRowPayload } from "../job-kinds";

export const forgeDistillTask = defineTask({
  name: "svc.forge_distill",
  payload: JobRowPayload,
  attempts: 5,
  backoffMs: 2000,
  run: (payload, deps) =>
    deps.config.DISTILL_ENABLED
      ? runDistillJob(deps, deps.extractor, payload.org_id, payload.job_id)
      : rejectDisabledJob(deps.db, payload.org_id, payload.job_id, "distill", "DISTILL_ENABLED"),
});
