// Ingest request and response shapes: submissions, the job view, loaders, uploads and search
// batches.
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { NullableTimestamp, Timestamp } from "./common";

const AgentId = t.String({ minLength: 1, maxLength: 256 });
const DatasetId = t.Optional(
  t.String({
    minLength: 1,
    maxLength: 64,
    description: "A live dataset of the caller (POST /v1/datasets); omit to ingest without one",
  }),
);

export const IngestBody = (config: Config) =>
  t.Object(
    {
      agent_id: AgentId,
      dataset_id: DatasetId,
      text: t.Optional(
        t.String({
          minLength: 1,
          maxLength: config.SVC_MAX_BODY_BYTES,
          description: "Text to ingest (plain text; give text or url)",
        }),
      ),
      url: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 2048,
          description:
            "http(s) URL to fetch and ingest (give text or url); private and loopback addresses " +
            "are refused",
        }),
      ),
    },
    { additionalProperties: false },
  );

const JobState = t.Union(
  [
    t.Literal("queued"),
    t.Literal("running"),
    t.Literal("succeeded"),
    t.Literal("failed"),
    t.Literal("rejected"),
    t.Literal("awaiting_upload"),
  ],
  {
    description:
      "awaiting_upload (direct uploads only) → queued → running → succeeded | failed; rejected " +
      "when ingest is disabled",
  },
);

export const SubmittedJob = t.Object(
  {
    job_id: t.String(),
    kind: t.Literal("ingest"),
    state: JobState,
    agent_id: t.String(),
    dataset_id: t.Union([t.String(), t.Null()]),
    status_url: t.String({ description: "Poll this for progress and the result" }),
    warnings: t.Array(t.String()),
  },
  { additionalProperties: false },
);

export const IngestJob = t.Object(
  {
    job_id: t.String(),
    kind: t.Literal("ingest"),
    state: JobState,
    agent_id: t.String(),
    dataset_id: t.Union([t.String(), t.Null()]),
    batch_id: t.Union([t.String(), t.Null()], {
      description: "The web-search batch this job belongs to",
    }),
    source: t.Record(t.String(), t.Unknown(), {
      description:
        "kind (text, url, file, upload, search) and what identifies it; posted text shows only " +
        "its length",
    }),
    loader: t.Union([t.String(), t.Null()]),
    detected_type: t.Union([t.String(), t.Null()], {
      description: "The format recognised from the bytes",
    }),
    progress: t.Record(t.String(), t.Unknown(), {
      description: "stage and counters while the job runs",
    }),
    memory_ids: t.Array(t.String(), {
      description:
        "The memories holding the document's chunks, in order (at most 1000); for a duplicate, " +
        "the ones the first ingest created",
    }),
    memory_count: t.Integer({ minimum: 0 }),
    warnings: t.Array(t.String()),
    error: t.Union([t.String(), t.Null()], { description: "Why the job failed, in words" }),
    failure_reason: t.Union([t.String(), t.Null()], {
      description:
        "corrupt, encrypted, empty, unsupported, too-large, needs-multimodal, fetch-refused, " +
        "fetch-failed, budget-exceeded, dataset-deleted, upload-missing, upload-expired, " +
        "search-failed",
    }),
    duplicate_of: t.Union([t.Object({ source_id: t.String(), job_id: t.String() }), t.Null()], {
      description:
        "Identical content was already ingested for this agent and dataset by that job; nothing " +
        "new was stored",
    }),
    distill_job_id: t.Union([t.String(), t.Null()], {
      description: "The distill job this ingest chained (INGEST_AUTO_DISTILL)",
    }),
    distill_skipped: t.Union([t.String(), t.Null()], {
      description: "Why no distill job was chained",
    }),
    attempts: t.Integer({ minimum: 0 }),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

export const JobParams = t.Object({ job_id: t.String({ maxLength: 64 }) });

export const LoaderInfo = t.Object(
  {
    id: t.String(),
    mime_types: t.Array(t.String()),
    extensions: t.Array(t.String()),
    needs_multimodal: t.Boolean({
      description: "Only with MULTIMODAL_ENABLED=true and an LLM provider",
    }),
    available: t.Boolean({ description: "Whether this server can use the loader now" }),
    description: t.String(),
  },
  { additionalProperties: false },
);

/** POST /v1/ingest/file's multipart body in OpenAPI: the domain streams it, no schema reads it. */
export const IngestFileRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["agent_id", "file"],
        additionalProperties: false,
        properties: {
          agent_id: { type: "string", minLength: 1, maxLength: 256 },
          dataset_id: {
            type: "string",
            minLength: 1,
            maxLength: 64,
            description: "A live dataset of the caller; omit to ingest without one",
          },
          file: {
            type: "string",
            format: "binary",
            description:
              "The document; its format is recognised from its bytes (GET /v1/ingest/loaders)",
          },
        },
      },
    },
  },
};
