// Memory request and response shapes for the store, batch, read, history, PATCH and forget routes.
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { MEMORY_TYPES } from "../../domain/memories/types";
import { NullableTimestamp, Timestamp } from "./common";

export const MemoryType = t.Union(
  MEMORY_TYPES.map((m) => t.Literal(m)),
  {
    description:
      "semantic (facts, default), episodic (dated events), procedural (how-to), working (short-lived notes), turn (conversation turns, written by the conversations API)",
  },
);

const Metadata = t.Record(t.String(), t.Unknown(), { description: "Free-form JSON object" });
// Request side: Elysia's default body normaliser rewrites arrays and strings given for a Record
// into {"0": …} objects, so the schema accepts any JSON and the domain checks for a plain object.
const MetadataInput = t.Unknown({
  description: "Free-form JSON object (not an array); at most MEMORY_METADATA_MAX_BYTES as JSON",
});

/** Checked by the domain (parseEventTime), which answers a 422 naming the field. */
export const EventTimeInput = t.String({
  minLength: 10,
  maxLength: 64,
  description:
    "Event time: when the remembered thing happened. ISO 8601 date (`2023-05-08`, read as UTC midnight) or date-time; default: the store time",
});

export const Memory = t.Object(
  {
    memory_id: t.String(),
    version: t.Integer({ minimum: 1 }),
    agent_id: t.String(),
    content: t.String(),
    content_hash: t.String({ description: "SHA-256 of content, hex" }),
    memory_type: t.String(),
    metadata: Metadata,
    importance: t.Number({ minimum: 0, maximum: 1 }),
    dataset_id: t.Union([t.String(), t.Null()]),
    embedding_status: t.Union([t.Literal("ready"), t.Literal("pending")], {
      description:
        "pending: stored without a vector (provider unavailable); svc.generate_embedding fills it in",
    }),
    created_at: Timestamp,
    occurred_at: t.Date({
      description: "Event time: when the remembered thing happened (defaults to the store time)",
    }),
    valid_from: Timestamp,
    valid_to: NullableTimestamp,
    deleted_at: NullableTimestamp,
    expires_at: NullableTimestamp,
    last_accessed_at: NullableTimestamp,
    access_count: t.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const storeBody = (config: Config) =>
  t.Object(
    {
      agent_id: t.String({ minLength: 1, maxLength: 256 }),
      content: t.String({ minLength: 1, maxLength: config.MEMORY_CONTENT_MAX_CHARS }),
      memory_type: t.Optional(MemoryType),
      metadata: t.Optional(MetadataInput),
      importance: t.Optional(
        t.Number({ minimum: 0, maximum: 1, default: 0.5, description: "0..1, default 0.5" }),
      ),
      ttl_seconds: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 315_360_000,
          description: "Expire this many seconds from now (at most 10 years); not with expires_at",
        }),
      ),
      expires_at: t.Optional(
        t.String({
          format: "date-time",
          description: "Expiry time (future); not with ttl_seconds",
        }),
      ),
      occurred_at: t.Optional(EventTimeInput),
      dataset_id: t.Optional(t.String({ minLength: 1, maxLength: 128 })),
    },
    { additionalProperties: false },
  );

export const batchBody = (config: Config) =>
  t.Object(
    {
      memories: t.Array(storeBody(config), {
        minItems: 1,
        maxItems: config.MEMORY_BATCH_MAX,
        description: `1 to MEMORY_BATCH_MAX (${config.MEMORY_BATCH_MAX}) memories; all are stored or none`,
      }),
    },
    { additionalProperties: false },
  );

export const patchBody = (config: Config) =>
  t.Object(
    {
      content: t.Optional(t.String({ minLength: 1, maxLength: config.MEMORY_CONTENT_MAX_CHARS })),
      metadata: t.Optional(MetadataInput),
      importance: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
      occurred_at: t.Optional(EventTimeInput),
    },
    { additionalProperties: false },
  );

export const forgetBody = (config: Config) =>
  t.Object(
    {
      memory_id: t.Optional(
        t.String({ minLength: 1, maxLength: 128, description: "One memory (SDK form)" }),
      ),
      memory_ids: t.Optional(
        t.Array(t.String({ minLength: 1, maxLength: 128 }), {
          minItems: 1,
          maxItems: config.MEMORY_FORGET_MAX_IDS,
          description: `Many memories (at most MEMORY_FORGET_MAX_IDS = ${config.MEMORY_FORGET_MAX_IDS})`,
        }),
      ),
      agent_id: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 256,
          description:
            "When given, only this agent's memories are forgotten; others are reported in not_found",
        }),
      ),
    },
    { additionalProperties: false },
  );

export const ForgetResponse = t.Object(
  {
    forgotten: t.Array(t.String(), {
      description: "memory ids whose current version was closed and marked deleted",
    }),
    not_found: t.Array(t.String(), {
      description: "unknown, another tenant's, or already forgotten ids",
    }),
    cert_id: t.Optional(
      t.Union([t.String(), t.Null()], {
        description: "Forget certificate id when FORGET_PROOF_ENABLED=true, else null",
      }),
    ),
  },
  { additionalProperties: false },
);

export const MemoryIdParams = t.Object({ memory_id: t.String() });
