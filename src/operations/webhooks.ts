// Webhook endpoint operations (admin): register, list, read, delete, rotate the signing secret, and
// the delivery log (docs/webhooks.md).
import { t } from "elysia";
import { endpointDeliveries } from "../domain/webhooks/deliveries";
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  readEndpoint,
  rotateEndpointSecret,
} from "../domain/webhooks/endpoints";
import { type Operation, read, write } from "./operation";
import { PageQuery } from "./schemas/common";
import {
  CreateWebhookEndpoint,
  DeletedWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookParams,
} from "./schemas/webhooks";

const tags = ["Webhooks"];
const page = { from: "query", schema: () => PageQuery } as const;
const pageOf = (item: ReturnType<typeof t.Object>) =>
  t.Object({ items: t.Array(item), next_cursor: t.Union([t.String(), t.Null()]) });

export const WEBHOOK_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/webhooks", "admin", "webhook.create", {
    handler: {
      input: { from: "body", schema: () => CreateWebhookEndpoint },
      status: 201,
      output: WebhookEndpointWithSecret,
      errors: [400, 409, 413, 415],
      docs: {
        tags,
        summary: "Create a webhook endpoint (secret returned once)",
        description:
          "The URL passes URL ingest's address rules (no loopback, private, link-local or IPv4-embedding addresses). At most 20 live endpoints per tenant (409). Deliveries are signed: see docs/webhooks.md.",
      },
      run: ({ deps, actor }, body) => createEndpoint(deps.db, deps.webhookPolicy, actor, body),
    },
  }),
  read("/v1/webhooks", "admin", {
    handler: {
      input: page,
      output: pageOf(WebhookEndpoint),
      errors: [],
      docs: {
        tags,
        summary: "List webhook endpoints",
        description: "Oldest first. Secrets are never listed.",
      },
      run: ({ deps, actor }, query) =>
        listEndpoints(deps.db, actor, query.limit ?? 50, query.cursor),
    },
  }),
  read("/v1/webhooks/:endpoint_id", "admin", {
    handler: {
      input: null,
      params: WebhookParams,
      output: WebhookEndpoint,
      errors: [404],
      docs: { tags, summary: "Read a webhook endpoint" },
      run: ({ deps, actor }, _, params) => readEndpoint(deps.db, actor, params.endpoint_id),
    },
  }),
  write("DELETE", "/v1/webhooks/:endpoint_id", "admin", "webhook.delete", {
    handler: {
      input: null,
      params: WebhookParams,
      output: DeletedWebhookEndpoint,
      errors: [404],
      docs: {
        tags,
        summary: "Delete a webhook endpoint",
        description:
          'Pending deliveries become dead (last_error "endpoint deleted"); a deleted endpoint answers 404.',
      },
      run: ({ deps, actor }, _, params) => deleteEndpoint(deps.db, actor, params.endpoint_id),
    },
  }),
  write("POST", "/v1/webhooks/:endpoint_id/rotate-secret", "admin", "webhook.rotate_secret", {
    handler: {
      input: null,
      params: WebhookParams,
      output: WebhookEndpointWithSecret,
      errors: [404],
      docs: {
        tags,
        summary: "Rotate an endpoint's signing secret (returned once)",
        description:
          "Until previous_secret_until, Svc-Signature carries a v1 made with the new secret and one made with the previous secret, so receivers can switch without losing deliveries.",
      },
      run: ({ deps, actor }, _, params) =>
        rotateEndpointSecret(
          deps.db,
          actor,
          params.endpoint_id,
          deps.config.WEBHOOKS_SECRET_OVERLAP_SECONDS,
        ),
    },
  }),
  read("/v1/webhooks/:endpoint_id/deliveries", "admin", {
    handler: {
      input: page,
      params: WebhookParams,
      output: pageOf(WebhookDelivery),
      errors: [404],
      docs: {
        tags,
        summary: "List an endpoint's deliveries",
        description:
          "One row per event sent (or to be sent) to the endpoint: pending, delivered or dead, with attempts and the last status.",
      },
      run: ({ deps, actor }, query, params) =>
        endpointDeliveries(deps.db, actor, params.endpoint_id, query.limit ?? 50, query.cursor),
    },
  }),
];
