// DELETE /v1/webhooks/{endpoint_id}: stop delivering to an endpoint; its pending deliveries are dropped.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { deleteEndpoint } from "../../../domain/webhooks/endpoints";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { DeletedWebhookEndpoint, WebhookParams } from "../../../operations/schemas/webhooks";

export const deleteWebhookRoute = (deps: Deps) =>
  new Elysia().delete(
    "/v1/webhooks/:endpoint_id",
    ({ request, params }) => deleteEndpoint(deps.db, actorOf(request), params.endpoint_id),
    {
      params: WebhookParams,
      response: { 200: DeletedWebhookEndpoint, ...authedErrors(404) },
      detail: {
        tags: ["Webhooks"],
        summary: "Delete a webhook endpoint",
        description:
          'Pending deliveries become dead (last_error "endpoint deleted"); a deleted endpoint answers 404.',
      },
    },
  );
