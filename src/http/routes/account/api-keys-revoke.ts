// DELETE /v1/api-keys/{key_id}: revoke; the key fails from the next request on. Idempotent.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { revokeTenantKey } from "../../../domain/keys/manage";
import { notFound } from "../../../lib/errors";
import { looksLikeId } from "../../../lib/ids";
import { actorOf } from "../../request-context";
import { ApiKey } from "../../../operations/schemas/api-keys";
import { authedErrors } from "../../../operations/schemas/common";

export const revokeApiKeyRoute = (deps: Deps) =>
  new Elysia().delete(
    "/v1/api-keys/:key_id",
    async ({ request, params }) => {
      const actor = actorOf(request);
      if (!looksLikeId("key", params.key_id)) throw notFound("API key");
      return revokeTenantKey(deps, actor, params.key_id);
    },
    {
      params: t.Object({ key_id: t.String({ maxLength: 64 }) }),
      response: { 200: ApiKey, ...authedErrors(404) },
      detail: { tags: ["API keys"], summary: "Revoke an API key" },
    },
  );
