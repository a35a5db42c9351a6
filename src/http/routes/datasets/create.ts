// POST /v1/datasets: create a named dataset to ingest (or store) memories into.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { createDataset } from "../../../domain/datasets/datasets";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { CreateDataset, Dataset } from "../../../operations/schemas/datasets";

export const createDatasetRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/datasets",
    async ({ request, body, set }) => {
      const dataset = await createDataset(deps, actorOf(request), body);
      set.status = 201;
      return dataset;
    },
    {
      parse: "json",
      body: CreateDataset,
      response: { 201: Dataset, ...authedErrors(400, 409, 413, 415) },
      detail: {
        tags: ["Datasets"],
        summary: "Create a dataset",
        description:
          "A live dataset with the same name (ignoring case) is a 409. Ingest into it with dataset_id, or store memories into it directly.",
      },
    },
  );
