// PATCH /v1/memories/{memory_id}: a new version with new content, metadata or importance.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { patchMemory } from "../../../domain/memories/update";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Memory, MemoryIdParams, patchBody } from "../../../operations/schemas/memories";

export const patchMemoryRoute = (deps: Deps) =>
  new Elysia().patch(
    "/v1/memories/:memory_id",
    ({ request, params, body }) => patchMemory(deps, actorOf(request), params.memory_id, body),
    {
      parse: "json",
      params: MemoryIdParams,
      body: patchBody(deps.config),
      response: { 200: Memory, ...authedErrors(400, 404, 410, 413, 415) },
      detail: {
        tags: ["Memories"],
        summary: "Update a memory (creates the next version)",
        description:
          "Closes the current version (valid_to = now) and inserts version + 1 in one transaction; metadata is replaced, not merged. A forgotten or expired memory answers 410.",
      },
    },
  );
