// POST /v1/webhooks: register an endpoint for some event types; the signing secret is in this response only.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { createEndpoint } from "../../../domain/webhooks/endpoints";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import {
  CreateWebhookEndpoint,
  WebhookEndpointWithSecret,
} from "../../../operations/schemas/webhooks";

export const createWebhookRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/webhooks",
    async ({ request, body, set }) => {
      const created = await createEndpoint(deps.db, deps.webhookPolicy, actorOf(request), body);
      set.status = 201;
      return created;
    },
    {
      parse: "json",
      body: CreateWebhookEndpoint,
      response: { 201: WebhookEndpointWithSecret, ...authedErrors(400, 409, 413, 415) },
      detail: {
        tags: ["Webhooks"],
        summary: "Create a webhook endpoint (secret returned once)",
        description:
          "The URL passes URL ingest's address rules (no loopback, private, link-local or IPv4-embedding addresses). At most 20 live endpoints per tenant (409). Deliveries are signed: see docs/webhooks.md.",
      },
    },
  );
