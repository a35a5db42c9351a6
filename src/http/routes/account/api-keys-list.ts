// GET /v1/api-keys: the caller's keys, newest first, paginated; never the secret.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { listTenantKeys } from "../../../domain/keys/manage";
import { actorOf } from "../../request-context";
import { ApiKey } from "../../../operations/schemas/api-keys";
import { authedErrors, PageQuery } from "../../../operations/schemas/common";

export const listApiKeysRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/api-keys",
    ({ request, query }) =>
      listTenantKeys(deps.db, actorOf(request), query.limit ?? 50, query.cursor),
    {
      query: PageQuery,
      response: {
        200: t.Object({ items: t.Array(ApiKey), next_cursor: t.Union([t.String(), t.Null()]) }),
        ...authedErrors(),
      },
      detail: { tags: ["API keys"], summary: "List the caller's API keys" },
    },
  );
