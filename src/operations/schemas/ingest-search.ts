// Web-search batch shapes: POST /v1/ingest/search and GET /v1/ingest/search/{batch_id}.
import { t } from "elysia";
import { SEARCH_DEFAULT_RESULTS, SEARCH_MAX_RESULTS } from "../../domain/ingest/search-submit";
import { NullableTimestamp, Timestamp } from "./common";

export const SearchBody = t.Object(
  {
    agent_id: t.String({ minLength: 1, maxLength: 256 }),
    dataset_id: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 64,
        description: "A live dataset of the caller; omit to ingest without one",
      }),
    ),
    query: t.String({ minLength: 1, maxLength: 400, description: "What to search the web for" }),
    max_results: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: SEARCH_MAX_RESULTS,
        default: SEARCH_DEFAULT_RESULTS,
        description: `How many result URLs to ingest (default ${SEARCH_DEFAULT_RESULTS}, at most ${SEARCH_MAX_RESULTS})`,
      }),
    ),
  },
  { additionalProperties: false },
);

const BatchState = t.Union(
  [t.Literal("discovering"), t.Literal("running"), t.Literal("completed"), t.Literal("failed")],
  {
    description:
      "discovering (asking the provider) → running (children ingesting) → completed (every child settled, whatever its outcome); failed when the search itself failed",
  },
);

export const SubmittedBatch = t.Object(
  {
    batch_id: t.String(),
    state: BatchState,
    agent_id: t.String(),
    dataset_id: t.Union([t.String(), t.Null()]),
    query: t.String(),
    max_results: t.Integer(),
    discovery_job_id: t.String({
      description: "The ingest job that asks the provider (GET /v1/ingest/{job_id})",
    }),
    status_url: t.String({ description: "Poll this for the batch and its children" }),
  },
  { additionalProperties: false },
);

const ChildState = t.Union([
  t.Literal("queued"),
  t.Literal("running"),
  t.Literal("succeeded"),
  t.Literal("failed"),
  t.Literal("rejected"),
  t.Literal("awaiting_upload"),
  t.Literal("skipped"),
]);

export const SearchBatch = t.Object(
  {
    batch_id: t.String(),
    state: BatchState,
    agent_id: t.String(),
    dataset_id: t.Union([t.String(), t.Null()]),
    query: t.String(),
    max_results: t.Integer(),
    provider: t.String(),
    discovery_job_id: t.String(),
    failure_reason: t.Union([t.String(), t.Null()], {
      description: "When failed: search-failed (the provider refused or failed) or budget-exceeded",
    }),
    error: t.Union([t.String(), t.Null()]),
    counts: t.Record(t.String(), t.Integer(), { description: "Child jobs by state" }),
    results: t.Array(
      t.Object(
        {
          rank: t.Integer({ minimum: 1 }),
          url: t.String(),
          title: t.Union([t.String(), t.Null()]),
          job_id: t.Union([t.String(), t.Null()], {
            description: "The URL ingest job (GET /v1/ingest/{job_id}); null when skipped",
          }),
          skipped: t.Union([t.String(), t.Null()], {
            description: "Why no job was created (not an http(s) URL, duplicate)",
          }),
          state: ChildState,
          failure_reason: t.Union([t.String(), t.Null()], {
            description: "The child's failure reason, e.g. fetch-refused for a private address",
          }),
          error: t.Union([t.String(), t.Null()]),
          memory_count: t.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
    created_at: Timestamp,
    discovered_at: NullableTimestamp,
  },
  { additionalProperties: false },
);

export const BatchParams = t.Object({ batch_id: t.String({ maxLength: 64 }) });
