// POST /v1/memories/forget: soft-delete one (memory_id) or many (memory_ids) memories, keeping
// history.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { forgetRequested } from "../../../domain/memories/forget-request";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { forgetBody, ForgetResponse } from "../../../operations/schemas/memories";

export const forgetMemoriesRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/memories/forget",
    ({ request, body }) => forgetRequested(deps, actorOf(request), body),
    {
      parse: "json",
      body: forgetBody(deps.config),
      response: { 200: ForgetResponse, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Memories"],
        summary: "Forget memories (soft delete)",
        description:
          "Sets valid_to and deleted_at on the current version; history stays readable. Ids that are unknown, another tenant's or already forgotten are listed in not_found (the call is idempotent).",
      },
    },
  );
