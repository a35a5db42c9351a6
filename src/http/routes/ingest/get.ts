// GET /v1/ingest/{job_id}: poll an ingest job.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readIngestJob } from "../../../domain/ingest/view";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { IngestJob, JobParams } from "../../../operations/schemas/ingest";

export const getIngestJobRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/ingest/:job_id",
    ({ request, params }) => readIngestJob(deps.db, actorOf(request), params.job_id),
    {
      params: JobParams,
      response: { 200: IngestJob, ...authedErrors(404) },
      detail: {
        tags: ["Ingest"],
        summary: "Poll an ingest job",
        description:
          "State, progress, the memories created, warnings, the failure reason and the chained distill job.",
      },
    },
  );
