// POST /v1/memories: store one memory (embedded outside the transaction, inserted and audited
// inside).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { storeMemories } from "../../../domain/memories/store";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Memory, storeBody } from "../../../operations/schemas/memories";

export const storeMemoryRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/memories",
    async ({ request, body, set }) => {
      const actor = actorOf(request);
      const [record] = await storeMemories(deps, actor, [body]);
      set.status = 201;
      return record!;
    },
    {
      parse: "json",
      body: storeBody(deps.config),
      response: { 201: Memory, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Memories"],
        summary: "Store a memory",
        description:
          "Without memory_type the memory is `semantic`, or chosen by the documented rules when MEMORY_TIER_AUTO_ROUTE=true. A provider outage never fails the store: the memory comes back with embedding_status `pending`.",
      },
    },
  );
