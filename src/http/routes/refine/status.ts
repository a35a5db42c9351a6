// GET /v1/refine/{job_id}: poll a refine run: state, per-pass counts and durations, and its changes
// (paginated).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { getRefineStatus } from "../../../domain/forge/refine/status";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import {
  RefineJobParams,
  RefineStatus,
  RefineStatusQuery,
} from "../../../operations/schemas/refine";

export const refineStatusRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/refine/:job_id",
    ({ request, params, query }) =>
      getRefineStatus(deps.db, actorOf(request), params.job_id, query),
    {
      params: RefineJobParams,
      query: RefineStatusQuery,
      response: { 200: RefineStatus, ...authedErrors(404) },
      detail: {
        tags: ["Refine"],
        summary: "Poll a refine run",
        description:
          "States: queued → running → succeeded | failed (rejected when REFINE_ENABLED is off on the worker). changes lists what the run changed (a dry run: what it would change), oldest first, each with its reason; pass changes.next_cursor as cursor for the next page.",
      },
    },
  );
