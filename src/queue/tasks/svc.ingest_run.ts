// svc.ingest_run: ingest pipeline for a job row created by POST /v1/ingest*; self-rejects when INGEST_ENABLED=false.
import { defineTask } from "../define-task";
import { JobRowPayload, settleJobRow } from "./job-row-task";

export const ingestRunTask = defineTask({
  name: "svc.ingest_run",
  payload: JobRowPayload,
  attempts: 5,
  backoffMs: 2000,
  run: (payload, deps) => settleJobRow(deps, payload, "ingest", { enabled: deps.config.INGEST_ENABLED, variable: "INGEST_ENABLED" }),
});
