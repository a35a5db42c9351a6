// POST /v1/ingest/search: search the web and ingest the result pages; answers 202 with the batch to
// poll.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { submitSearch } from "../../../domain/ingest/search-submit";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { SearchBody, SubmittedBatch } from "../../../operations/schemas/ingest-search";

export const submitSearchRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/ingest/search",
    async ({ request, body, set }) => {
      const batch = await submitSearch(deps, actorOf(request), body);
      set.status = 202;
      return batch;
    },
    {
      parse: "json",
      body: SearchBody,
      response: { 202: SubmittedBatch, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Ingest"],
        summary: "Ingest web-search results",
        description:
          "Asks the web-search provider (Brave Search API) for `query`, then ingests each of the first `max_results` result URLs as its own URL ingest job of `agent_id` (in `dataset_id` when given), fetched SSRF-safely like POST /v1/ingest: a result on a private address fails that job only. Poll status_url.",
      },
    },
  );
