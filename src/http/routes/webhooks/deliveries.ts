// GET /v1/webhooks/{endpoint_id}/deliveries: the endpoint's delivery log, newest first, cursor-paginated.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { endpointDeliveries } from "../../../domain/webhooks/deliveries";
import { actorOf } from "../../request-context";
import { authedErrors, PageQuery } from "../../../operations/schemas/common";
import { WebhookDelivery, WebhookParams } from "../../../operations/schemas/webhooks";

export const webhookDeliveriesRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/webhooks/:endpoint_id/deliveries",
    ({ request, params, query }) =>
      endpointDeliveries(
        deps.db,
        actorOf(request),
        params.endpoint_id,
        query.limit ?? 50,
        query.cursor,
      ),
    {
      params: WebhookParams,
      query: PageQuery,
      response: {
        200: t.Object({
          items: t.Array(WebhookDelivery),
          next_cursor: t.Union([t.String(), t.Null()]),
        }),
        ...authedErrors(404),
      },
      detail: {
        tags: ["Webhooks"],
        summary: "List an endpoint's deliveries",
        description:
          "One row per event sent (or to be sent) to the endpoint: pending, delivered or dead, with attempts and the last status.",
      },
    },
  );
