// The tasks that advance a job row of each kind, and the payload they share. The watchdog wakes a
// re-queued row through this map; a job kind without a task is a type error.
import { Type as T } from "@sinclair/typebox";
import type { JobKind } from "../domain/jobs/claim";
import type { TaskName } from "../domain/ports/task-queue";

export const JobRowPayload = T.Object(
  {
    org_id: T.String({ minLength: 1, maxLength: 100 }),
    job_id: T.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const TASK_OF_KIND = {
  ingest: "svc.ingest_run",
  distill: "svc.forge_distill",
  refine: "svc.refine_run",
  erasure: "svc.erase_subject",
} as const satisfies Record<JobKind, TaskName>;
