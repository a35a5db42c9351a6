// GET /v1/memories: one agent's memories, or every agent's, filtered and paginated, newest first.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { listMemories } from "../../../domain/memories/list";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import {
  MEMORY_LIST_PARAMS,
  MemoryListQuery,
  MemoryPage,
  metadataFilters,
} from "../../../operations/schemas/memories-list";

export const listMemoriesRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/memories",
    ({ request, query }) =>
      listMemories(deps.db, actorOf(request), {
        ...query,
        metadata: metadataFilters(request.url, MEMORY_LIST_PARAMS),
      }),
    {
      query: MemoryListQuery,
      response: { 200: MemoryPage, ...authedErrors() },
      detail: {
        tags: ["Memories"],
        summary: "List memories, filtered, page by page",
        description: [
          "One row per memory (its current version; with include_forgotten also forgotten ones, as",
          "their last version), newest created first (order=asc: oldest first), ties broken by",
          "memory_id. Filters: agent_id, memory_type, dataset_id, created_after/created_before,",
          "occurred_after/occurred_before, and metadata equality as `metadata.<key>=<value>`",
          "(repeat for more keys, all must match; the value matches that string, or the number,",
          "boolean or null it spells). Any other parameter is a 422. Pass next_cursor as cursor for",
          "the next page. See docs/memories.md.",
        ].join(" "),
      },
    },
  );
