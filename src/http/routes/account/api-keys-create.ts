// POST /v1/api-keys: mint a key for the caller's tenant; the plaintext is in this response only.
// The new key holds only scopes the caller holds (default: the caller's), within
// API_KEYS_MAX_ACTIVE live keys.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { createTenantKey } from "../../../domain/keys/manage";
import { actorOf, scopesOf } from "../../request-context";
import { CreatedApiKey, KeyScope } from "../../../operations/schemas/api-keys";
import { authedErrors } from "../../../operations/schemas/common";

export const createApiKeyRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/api-keys",
    async ({ request, body, set }) => {
      const created = await createTenantKey(
        deps.db,
        actorOf(request),
        scopesOf(request),
        { name: body.name ?? "unnamed", scopes: body.scopes },
        deps.config.API_KEYS_MAX_ACTIVE,
      );
      set.status = 201;
      return created;
    },
    {
      parse: "json",
      body: t.Object(
        {
          name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
          scopes: t.Optional(
            t.Array(KeyScope, {
              minItems: 1,
              maxItems: 10,
              uniqueItems: true,
              description:
                "Scopes of the new key, each held by the calling key; default: the caller's scopes",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      response: { 201: CreatedApiKey, ...authedErrors(400, 409, 413, 415) },
      detail: { tags: ["API keys"], summary: "Create an API key (plaintext returned once)" },
    },
  );
