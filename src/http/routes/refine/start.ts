// POST /v1/refine: enqueue a refine run over the caller's graph (or one agent's, or one dataset's
// part).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { validationFailed } from "../../../lib/errors";
import { requestRefine } from "../../../domain/forge/refine/request";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { refineBody, RefineQueued } from "../../../operations/schemas/refine";

export const startRefineRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/refine",
    async ({ request, body, set }) => {
      const queued = await requestRefine(deps, actorOf(request), body);
      set.status = 202;
      return queued;
    },
    {
      parse: "json",
      // Every field is optional, so the validator would turn a string or array body into {}: refuse
      // it here.
      transform: ({ body }) => {
        if (
          body !== null &&
          body !== undefined &&
          (typeof body !== "object" || Array.isArray(body))
        )
          throw validationFailed([{ path: "/", message: "must be a JSON object" }]);
      },
      body: refineBody,
      response: { 202: RefineQueued, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Refine"],
        summary: "Enqueue a refine run",
        description:
          "Passes run in the order dedupe, infer, summarize, reweight, prune; one run per tenant at a time (a second one waits). Poll GET /v1/refine/{job_id}. See docs/refine.md for each pass and its thresholds.",
      },
    },
  );
