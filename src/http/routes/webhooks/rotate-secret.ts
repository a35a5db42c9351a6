// POST /v1/webhooks/{endpoint_id}/rotate-secret: a new signing secret, returned once; the previous one
// keeps signing alongside for WEBHOOKS_SECRET_OVERLAP_SECONDS.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { rotateEndpointSecret } from "../../../domain/webhooks/endpoints";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { WebhookEndpointWithSecret, WebhookParams } from "../../../operations/schemas/webhooks";

export const rotateWebhookSecretRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/webhooks/:endpoint_id/rotate-secret",
    ({ request, params }) =>
      rotateEndpointSecret(
        deps.db,
        actorOf(request),
        params.endpoint_id,
        deps.config.WEBHOOKS_SECRET_OVERLAP_SECONDS,
      ),
    {
      params: WebhookParams,
      response: { 200: WebhookEndpointWithSecret, ...authedErrors(404) },
      detail: {
        tags: ["Webhooks"],
        summary: "Rotate an endpoint's signing secret (returned once)",
        description:
          "Until previous_secret_until, Svc-Signature carries a v1 made with the new secret and one made with the previous secret, so receivers can switch without losing deliveries.",
      },
    },
  );
