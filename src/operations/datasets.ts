// Dataset operations (INGEST_ENABLED): create, list, read and soft-delete the named sets that
// ingest (or store) memories go into.
import { t } from "elysia";
import {
  createDataset,
  deleteDataset,
  listTenantDatasets,
  readDataset,
} from "../domain/datasets/datasets";
import { type Operation, read, write } from "./operation";
import {
  CreateDataset,
  Dataset,
  DATASET_PAGE_DEFAULT,
  DatasetListQuery,
  DatasetParams,
  DatasetWithCounts,
} from "./schemas/datasets";

const ingest = { gate: "ingest" } as const;
const tags = ["Datasets"];

export const DATASET_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/datasets", "forge:write", "dataset.create", {
    ...ingest,
    handler: {
      input: { from: "body", schema: () => CreateDataset },
      status: 201,
      output: Dataset,
      errors: [400, 409, 413, 415],
      docs: {
        tags,
        summary: "Create a dataset",
        description:
          "A live dataset with the same name (ignoring case) is a 409. Ingest into it with " +
          "dataset_id, or store memories into it directly.",
      },
      run: ({ deps, actor }, body) => createDataset(deps, actor, body),
    },
  }),
  read("/v1/datasets", "memories:read", {
    ...ingest,
    handler: {
      input: { from: "query", schema: () => DatasetListQuery },
      output: t.Object({ items: t.Array(Dataset), next_cursor: t.Union([t.String(), t.Null()]) }),
      errors: [],
      docs: {
        tags,
        summary: "List datasets",
        description:
          "Oldest first (created_at, then dataset_id), so pages are stable while datasets are " +
          "added. Pass next_cursor back as `cursor` until it is null.",
      },
      run: ({ deps, actor }, query) =>
        listTenantDatasets(
          deps.db,
          actor,
          query.limit ?? DATASET_PAGE_DEFAULT,
          query.cursor,
          query.include_deleted ?? false,
        ),
    },
  }),
  // Deleted datasets stay readable.
  read("/v1/datasets/:dataset_id", "memories:read", {
    ...ingest,
    handler: {
      input: null,
      params: DatasetParams,
      output: DatasetWithCounts,
      errors: [404],
      docs: { tags, summary: "Read a dataset with its counts" },
      run: ({ deps, actor }, _, params) => readDataset(deps.db, actor, params.dataset_id),
    },
  }),
  write("DELETE", "/v1/datasets/:dataset_id", "forge:write", "dataset.delete", {
    ...ingest,
    handler: {
      input: null,
      params: DatasetParams,
      output: DatasetWithCounts,
      errors: [404, 409],
      docs: {
        tags,
        summary: "Soft-delete a dataset and detach its memories",
        description:
          "The current version of each memory in the dataset gets dataset_id null in place (no " +
          "new version); the memories stay recallable and their history keeps the old " +
          "dataset_id. counts.detached_memories says how many. Deleting twice is a 409; writing " +
          "into a deleted dataset is a 422.",
      },
      run: ({ deps, actor }, _, params) => deleteDataset(deps.db, actor, params.dataset_id),
    },
  }),
];
