// POST /v1/api-keys: mint a key for the caller's tenant; the plaintext is in this response only.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { createKey } from "../../../domain/keys/manage";
import { actorOf } from "../../request-context";
import { CreatedApiKey } from "../../schemas/api-keys";
import { authedErrors } from "../../schemas/common";

export const createApiKeyRoute = (deps: Deps) => new Elysia().post("/v1/api-keys", async ({ request, body, set }) => {
  const created = await createKey(deps.db, actorOf(request), body.name ?? "unnamed");
  set.status = 201;
  return created;
}, {
  parse: "json",
  body: t.Object({ name: t.Optional(t.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
  response: { 201: CreatedApiKey, ...authedErrors(400, 413, 415) },
  detail: { tags: ["API keys"], summary: "Create an API key (plaintext returned once)" },
});
