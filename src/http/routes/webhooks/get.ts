// GET /v1/webhooks/{endpoint_id}: one live endpoint (without its secret).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readEndpoint } from "../../../domain/webhooks/endpoints";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { WebhookEndpoint, WebhookParams } from "../../../operations/schemas/webhooks";

export const getWebhookRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/webhooks/:endpoint_id",
    ({ request, params }) => readEndpoint(deps.db, actorOf(request), params.endpoint_id),
    {
      params: WebhookParams,
      response: { 200: WebhookEndpoint, ...authedErrors(404) },
      detail: { tags: ["Webhooks"], summary: "Read a webhook endpoint" },
    },
  );
