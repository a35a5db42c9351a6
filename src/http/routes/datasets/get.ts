// GET /v1/datasets/{dataset_id}: one dataset with its counts (deleted datasets stay readable).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readDataset } from "../../../domain/datasets/datasets";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { DatasetParams, DatasetWithCounts } from "../../../operations/schemas/datasets";

export const getDatasetRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/datasets/:dataset_id",
    ({ request, params }) => readDataset(deps.db, actorOf(request), params.dataset_id),
    {
      params: DatasetParams,
      response: { 200: DatasetWithCounts, ...authedErrors(404) },
      detail: { tags: ["Datasets"], summary: "Read a dataset with its counts" },
    },
  );
