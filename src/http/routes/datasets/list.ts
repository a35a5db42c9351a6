// GET /v1/datasets: the tenant's datasets, oldest first, cursor-paginated.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { listTenantDatasets } from "../../../domain/datasets/datasets";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import {
  Dataset,
  DATASET_PAGE_DEFAULT,
  DatasetListQuery,
} from "../../../operations/schemas/datasets";

export const listDatasetsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/datasets",
    ({ request, query }) =>
      listTenantDatasets(
        deps.db,
        actorOf(request),
        query.limit ?? DATASET_PAGE_DEFAULT,
        query.cursor,
        query.include_deleted ?? false,
      ),
    {
      query: DatasetListQuery,
      response: {
        200: t.Object({ items: t.Array(Dataset), next_cursor: t.Union([t.String(), t.Null()]) }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Datasets"],
        summary: "List datasets",
        description:
          "Oldest first (created_at, then dataset_id), so pages are stable while datasets are added. Pass next_cursor back as `cursor` until it is null.",
      },
    },
  );
