// GET /v1/webhooks: the tenant's live endpoints, oldest first, cursor-paginated.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { listEndpoints } from "../../../domain/webhooks/endpoints";
import { actorOf } from "../../request-context";
import { authedErrors, PageQuery } from "../../../operations/schemas/common";
import { WebhookEndpoint } from "../../../operations/schemas/webhooks";

export const listWebhooksRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/webhooks",
    ({ request, query }) =>
      listEndpoints(deps.db, actorOf(request), query.limit ?? 50, query.cursor),
    {
      query: PageQuery,
      response: {
        200: t.Object({
          items: t.Array(WebhookEndpoint),
          next_cursor: t.Union([t.String(), t.Null()]),
        }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Webhooks"],
        summary: "List webhook endpoints",
        description: "Oldest first. Secrets are never listed.",
      },
    },
  );
