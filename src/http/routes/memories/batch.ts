// POST /v1/memories/batch: store up to MEMORY_BATCH_MAX memories all-or-nothing, with one embedding
// call.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { storeMemories } from "../../../domain/memories/store";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { batchBody, Memory } from "../../../operations/schemas/memories";

export const batchStoreRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/memories/batch",
    async ({ request, body, set }) => {
      const actor = actorOf(request);
      const memories = await storeMemories(deps, actor, body.memories, {
        pathPrefix: "memories/",
        graphLater: true,
      });
      set.status = 201;
      return { memories, count: memories.length };
    },
    {
      parse: "json",
      body: batchBody(deps.config),
      response: {
        201: t.Object(
          { memories: t.Array(Memory), count: t.Integer() },
          { additionalProperties: false },
        ),
        ...authedErrors(400, 413, 415),
      },
      detail: {
        tags: ["Memories"],
        summary: "Store many memories (all-or-nothing)",
        description:
          "Every item is validated first; one invalid item rejects the whole batch with 422 naming `memories/<index>/<field>`, and nothing is stored. Results are in request order.",
      },
    },
  );
