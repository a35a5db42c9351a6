// POST /v1/ingest: ingest posted text or a URL; answers 202 with the job to poll.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { submittedView, submitTextOrUrl } from "../../../domain/ingest/submit";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { IngestBody, SubmittedJob } from "../../../operations/schemas/ingest";

export const submitIngestRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/ingest",
    async ({ request, body, set }) => {
      const row = await submitTextOrUrl(deps, actorOf(request), body);
      set.status = 202;
      return submittedView(row);
    },
    {
      parse: "json",
      body: IngestBody(deps.config),
      response: { 202: SubmittedJob, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Ingest"],
        summary: "Ingest text or a URL",
        description:
          "Give exactly one of `text` or `url`. The worker chunks the content into memories of `agent_id` (in `dataset_id` when given); poll status_url. URLs are fetched SSRF-safely: http(s) only, private, loopback, link-local and metadata addresses refused unless INGEST_FETCH_ALLOW_CIDRS lists them, redirects re-checked. Re-ingesting identical content for the same agent and dataset stores nothing new.",
      },
    },
  );
