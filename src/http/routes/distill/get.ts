// GET /v1/distill/{job_id}: poll a distill job (DISTILL_ENABLED).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readDistillJob } from "../../../domain/forge/distill/status";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { DistillStatusSchema, JobIdParams } from "../../../operations/schemas/distill";

export const getDistillRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/distill/:job_id",
    ({ request, params }) => readDistillJob(deps.db, actorOf(request), params.job_id),
    {
      params: JobIdParams,
      response: { 200: DistillStatusSchema, ...authedErrors(404) },
      detail: {
        tags: ["Graph"],
        summary: "Poll a distill job",
        description:
          "State (queued, running, succeeded, failed, rejected), progress (memories done / total), counts (memos created/reused, edges created/reinforced/superseded/retired), " +
          "the ids skipped and why, warnings and errors. Another tenant's job id is a 404.",
      },
    },
  );
