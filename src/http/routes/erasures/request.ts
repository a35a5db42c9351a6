// POST /v1/erasures: queue the erasure of an agent, or of one subject of it (docs/erasure.md).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { requestErasure } from "../../../domain/erasure/request";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { erasureBody, ErasureQueued } from "../../../operations/schemas/erasures";

const DESCRIPTION =
  "Unlike forget (soft delete, history kept), an erasure empties the content of every " +
  "version of the matching memories (content hashes stay) and removes what was derived from them; " +
  "see docs/erasure.md. Poll GET /v1/erasures/{erasure_id}.";

export const requestErasureRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/erasures",
    async ({ request, body, set }) => {
      const queued = await requestErasure(deps, actorOf(request), body);
      set.status = 202;
      return queued;
    },
    {
      parse: "json",
      body: erasureBody,
      response: { 202: ErasureQueued, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Erasure"],
        summary: "Erase an agent or a subject",
        description: DESCRIPTION,
      },
    },
  );
