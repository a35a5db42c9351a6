// svc.erase_subject: one subject erasure for a tenant's job row, in bounded steps, resumable
// from the last committed step (docs/erasure.md).
import { runErasureJob } from "../../domain/erasure/run";
import { defineTask } from "../define-task";
import { JobRowPayload } from "../job-kinds";

export const eraseSubjectTask = defineTask({
  name: "svc.erase_subject",
  payload: JobRowPayload,
  attempts: 5,
  backoffMs: 2000,
  run: (payload, deps) => runErasureJob(deps, payload.org_id, payload.job_id),
});
