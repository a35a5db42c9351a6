// Dataset request and response shapes.
import { t } from "elysia";
import { NullableTimestamp, Timestamp } from "./common";

export const DATASET_PAGE_DEFAULT = 50;
export const DATASET_PAGE_MAX = 200;

export const Dataset = t.Object(
  {
    dataset_id: t.String(),
    name: t.String(),
    description: t.Union([t.String(), t.Null()]),
    metadata: t.Record(t.String(), t.Unknown()),
    state: t.Union([t.Literal("active"), t.Literal("deleted")], {
      description: "active → deleted (soft, final)",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    deleted_at: NullableTimestamp,
  },
  { additionalProperties: false },
);

export const DatasetWithCounts = t.Object(
  {
    ...Dataset.properties,
    counts: t.Object(
      {
        documents: t.Integer({
          minimum: 0,
          description: "Distinct documents fully ingested into the dataset",
        }),
        memories: t.Integer({
          minimum: 0,
          description: "Current memories in the dataset (0 once deleted: they were detached)",
        }),
        jobs: t.Integer({ minimum: 0, description: "Ingest jobs submitted into the dataset" }),
        detached_memories: t.Integer({
          minimum: 0,
          description: "Memories detached when the dataset was deleted",
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const CreateDataset = t.Object(
  {
    name: t.String({
      minLength: 1,
      maxLength: 200,
      description: "Unique among the tenant's live datasets, ignoring case",
    }),
    description: t.Optional(t.String({ maxLength: 2000 })),
    metadata: t.Optional(
      t.Unknown({ description: "JSON object, at most MEMORY_METADATA_MAX_BYTES" }),
    ),
  },
  { additionalProperties: false },
);

export const DatasetListQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: DATASET_PAGE_MAX,
      default: DATASET_PAGE_DEFAULT,
      description: `Page size (1–${DATASET_PAGE_MAX}, default ${DATASET_PAGE_DEFAULT})`,
    }),
  ),
  cursor: t.Optional(
    t.String({ maxLength: 512, description: "next_cursor from the previous page" }),
  ),
  include_deleted: t.Optional(
    t.Boolean({ default: false, description: "Also list soft-deleted datasets" }),
  ),
});

export const DatasetParams = t.Object({ dataset_id: t.String({ maxLength: 64 }) });
