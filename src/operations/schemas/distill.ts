// POST /v1/distill and GET /v1/distill/{job_id} shapes.
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { NullableTimestamp, Timestamp } from "./common";

export const distillBody = (config: Config) =>
  t.Object(
    {
      agent_id: t.String({ minLength: 1, maxLength: 256 }),
      memory_ids: t.Array(t.String({ minLength: 1, maxLength: 128 }), {
        minItems: 1,
        maxItems: config.DISTILL_MAX_MEMORY_IDS,
        description: `1 to ${config.DISTILL_MAX_MEMORY_IDS} memory ids (DISTILL_MAX_MEMORY_IDS); unknown, forgotten or other agents' ids are reported by the job, not refused`,
      }),
    },
    { additionalProperties: false },
  );

export const DistillAccepted = t.Object(
  {
    job_id: t.String(),
    state: t.Literal("queued"),
    memory_count: t.Integer({ description: "Distinct ids in the request" }),
  },
  { additionalProperties: false },
);

const Counts = t.Object(
  {
    memos_created: t.Integer(),
    memos_reused: t.Integer(),
    edges_created: t.Integer(),
    edges_reinforced: t.Integer(),
    edges_superseded: t.Integer(),
    edges_retired: t.Integer(),
    memos_retired: t.Integer(),
  },
  { additionalProperties: false },
);

const Memories = t.Object(
  {
    requested: t.Integer(),
    distilled: t.Integer(),
    already_distilled: t.Integer(),
    not_found: t.Array(t.String(), { description: "Unknown ids, or another tenant's" }),
    forgotten: t.Array(t.String(), { description: "Forgotten or past their TTL" }),
    other_agent: t.Array(t.String(), { description: "This tenant's memories of another agent" }),
    changed: t.Array(t.String(), {
      description: "PATCHed or forgotten while the job ran: distill them again",
    }),
  },
  { additionalProperties: false },
);

export const DistillStatusSchema = t.Object(
  {
    job_id: t.String(),
    state: t.Union([
      t.Literal("queued"),
      t.Literal("running"),
      t.Literal("succeeded"),
      t.Literal("failed"),
      t.Literal("rejected"),
    ]),
    agent_id: t.Union([t.String(), t.Null()]),
    parent_job_id: t.Union([t.String(), t.Null()], {
      description: "The ingest job that chained this one",
    }),
    attempts: t.Integer(),
    progress: t.Object(
      {
        done: t.Integer(),
        total: t.Union([t.Integer(), t.Null()], {
          description: "null until the worker has planned the job",
        }),
      },
      { additionalProperties: false },
    ),
    counts: Counts,
    memories: t.Union([Memories, t.Null()]),
    extractor: t.Union([t.String(), t.Null()]),
    warnings: t.Array(t.String()),
    errors: t.Array(
      t.Object({ memory_id: t.String(), message: t.String() }, { additionalProperties: false }),
    ),
    error: t.Union([t.String(), t.Null()], { description: "Why the job failed or was rejected" }),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

export const JobIdParams = t.Object({ job_id: t.String({ minLength: 1, maxLength: 128 }) });
