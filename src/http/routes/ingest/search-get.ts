// GET /v1/ingest/search/{batch_id}: poll a web-search batch and its child jobs.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readSearchBatch } from "../../../domain/ingest/search-view";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { BatchParams, SearchBatch } from "../../../operations/schemas/ingest-search";

export const getSearchBatchRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/ingest/search/:batch_id",
    ({ request, params }) => readSearchBatch(deps.db, actorOf(request), params.batch_id),
    {
      params: BatchParams,
      response: { 200: SearchBatch, ...authedErrors(404) },
      detail: {
        tags: ["Ingest"],
        summary: "Poll a web-search batch",
        description:
          "The batch's state, and each result URL with its child ingest job's state, failure reason and memory count.",
      },
    },
  );
