// svc.ingest_run: ingest pipeline for a job row created by POST /v1/ingest*; self-rejects when
// INGEST_ENABLED=false.
import { runIngestJob } from "../../domain/ingest/run/run-ingest-job";
import { defineTask } from "../define-task";
import { rejectDisabledJob } from "../../domain/jobs/settle";
import { JobRowPayload } from "../job-kinds";

export const ingestRunTask = defineTask({
  name: "svc.ingest_run",
  payload: JobRowPayload,
  attempts: 5,
  backoffMs: 2000,
  run: (payload, deps) =>
    deps.config.INGEST_ENABLED
      ? runIngestJob(deps, payload.org_id, payload.job_id)
      : rejectDisabledJob(deps.db, payload.org_id, payload.job_id, "ingest", "INGEST_ENABLED"),
});
