// DELETE /v1/datasets/{dataset_id}: soft-delete; its memories are detached, not forgotten.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { deleteDataset } from "../../../domain/datasets/datasets";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { DatasetParams, DatasetWithCounts } from "../../../operations/schemas/datasets";

export const deleteDatasetRoute = (deps: Deps) =>
  new Elysia().delete(
    "/v1/datasets/:dataset_id",
    ({ request, params }) => deleteDataset(deps.db, actorOf(request), params.dataset_id),
    {
      params: DatasetParams,
      response: { 200: DatasetWithCounts, ...authedErrors(404, 409) },
      detail: {
        tags: ["Datasets"],
        summary: "Soft-delete a dataset and detach its memories",
        description:
          "The current version of each memory in the dataset gets dataset_id null in place (no new version); the memories stay recallable and their history keeps the old dataset_id. counts.detached_memories says how many. Deleting twice is a 409; writing into a deleted dataset is a 422.",
      },
    },
  );
