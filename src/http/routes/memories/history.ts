// GET /v1/memories/{memory_id}/history: every version oldest first, forgotten ones included.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { getHistory } from "../../../domain/memories/read";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Memory, MemoryIdParams } from "../../../operations/schemas/memories";

export const memoryHistoryRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/memories/:memory_id/history",
    async ({ request, params }) => {
      const versions = await getHistory(deps.db, actorOf(request), params.memory_id);
      return { memory_id: params.memory_id, versions };
    },
    {
      params: MemoryIdParams,
      response: {
        200: t.Object(
          { memory_id: t.String(), versions: t.Array(Memory) },
          { additionalProperties: false },
        ),
        ...authedErrors(404),
      },
      detail: {
        tags: ["Memories"],
        summary: "Version history, oldest first",
        description:
          "Each version carries valid_from and valid_to; the current one has valid_to null. A forgotten memory keeps its history; its last version has deleted_at set.",
      },
    },
  );
