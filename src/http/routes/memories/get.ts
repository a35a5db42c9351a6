// GET /v1/memories/{memory_id}: the current version; 410 once forgotten or expired.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { getMemory } from "../../../domain/memories/read";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Memory, MemoryIdParams } from "../../../operations/schemas/memories";

export const getMemoryRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/memories/:memory_id",
    ({ request, params }) => getMemory(deps.db, actorOf(request), params.memory_id),
    {
      params: MemoryIdParams,
      response: { 200: Memory, ...authedErrors(404, 410) },
      detail: { tags: ["Memories"], summary: "Fetch one memory (current version)" },
    },
  );
