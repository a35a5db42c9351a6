// Webhook endpoint and delivery-log shapes (docs/webhooks.md).
import { t } from "elysia";
import { WEBHOOK_EVENT_TYPES } from "../../data/queries/webhooks/events";
import { NullableTimestamp, Timestamp } from "./common";

export const WebhookEventType = t.Union(WEBHOOK_EVENT_TYPES.map((type) => t.Literal(type)));

export const WebhookEndpoint = t.Object(
  {
    endpoint_id: t.String(),
    url: t.String(),
    events: t.Array(t.String()),
    include_content: t.Boolean({
      description: "Deliveries carry memory content (otherwise ids and metadata only)",
    }),
    description: t.Union([t.String(), t.Null()]),
    created_at: Timestamp,
    secret_rotated_at: NullableTimestamp,
    previous_secret_until: t.Union([t.Date(), t.Null()], {
      description: "Until then, deliveries are also signed with the previous secret",
    }),
  },
  { additionalProperties: false },
);

export const WebhookEndpointWithSecret = t.Object(
  {
    ...WebhookEndpoint.properties,
    secret: t.String({ description: "The signing secret (whsec_…); shown in this response only" }),
  },
  { additionalProperties: false },
);

export const DeletedWebhookEndpoint = t.Object(
  {
    ...WebhookEndpoint.properties,
    deleted_at: Timestamp,
    abandoned_deliveries: t.Integer({
      minimum: 0,
      description: "Pending deliveries marked dead by the delete",
    }),
  },
  { additionalProperties: false },
);

export const CreateWebhookEndpoint = t.Object(
  {
    url: t.String({
      minLength: 1,
      maxLength: 2048,
      description: "http(s) URL on a public address; redirects are never followed",
    }),
    events: t.Array(WebhookEventType, {
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
      uniqueItems: true,
    }),
    include_content: t.Optional(
      t.Boolean({ default: false, description: "Put memory content into memory.* deliveries" }),
    ),
    description: t.Optional(t.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const WebhookParams = t.Object({ endpoint_id: t.String({ maxLength: 64 }) });

export const WebhookDelivery = t.Object(
  {
    event_id: t.String({ description: "Svc-Event-Id: the same on every attempt of this event" }),
    type: t.String(),
    state: t.Union([t.Literal("pending"), t.Literal("delivered"), t.Literal("dead")]),
    attempts: t.Integer({ minimum: 0 }),
    next_attempt_at: t.Union([t.Date(), t.Null()], {
      description: "When a pending delivery is tried next",
    }),
    last_status: t.Union([t.Integer(), t.Null()], {
      description: "HTTP status of the last attempt (null: no answer)",
    }),
    last_error: t.Union([t.String(), t.Null()]),
    created_at: Timestamp,
    finished_at: NullableTimestamp,
  },
  { additionalProperties: false },
);
