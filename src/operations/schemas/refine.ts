// Feedback and refine request and response shapes (POST /v1/feedback, POST /v1/refine, GET
// /v1/refine/{job_id}).
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { PASS_ORDER } from "../../domain/forge/refine/pass-names";
import { NullableTimestamp, Timestamp } from "./common";

export const feedbackBody = (config: Config) =>
  t.Object(
    {
      // TypeBox's own Integer: Elysia's t.Integer would also accept the string "1".
      signal: Type.Integer({
        minimum: -1,
        maximum: 1,
        description: "-1 (wrong or unhelpful), 0 (neutral), +1 (right or helpful)",
      }),
      memory_id: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 128,
          description: "The memory the signal is about (exactly one of memory_id, edge_id)",
        }),
      ),
      edge_id: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 128,
          description: "The graph edge the signal is about, as GET /v1/graph/data returns it",
        }),
      ),
      note: t.Optional(
        t.String({
          maxLength: config.REFINE_FEEDBACK_NOTE_MAX_CHARS,
          description: `Free text, at most REFINE_FEEDBACK_NOTE_MAX_CHARS (${config.REFINE_FEEDBACK_NOTE_MAX_CHARS}) characters`,
        }),
      ),
      agent_id: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 256,
          description: "When given, the target must belong to this agent (else 404)",
        }),
      ),
    },
    { additionalProperties: false },
  );

export const Feedback = t.Object(
  {
    feedback_id: t.String(),
    agent_id: t.Union([t.String(), t.Null()], { description: "The target's agent" }),
    target_kind: t.Union([t.Literal("memory"), t.Literal("edge")]),
    target_id: t.String(),
    signal: t.Integer({ minimum: -1, maximum: 1 }),
    note: t.Union([t.String(), t.Null()]),
    state: t.Union([t.Literal("pending"), t.Literal("applied")], {
      description: "pending until a refine run's reweight pass applies it",
    }),
    created_at: Timestamp,
    applied_at: NullableTimestamp,
    applied_job_id: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: false },
);

const PassName = t.UnionEnum(PASS_ORDER);

export const refineBody = t.Object(
  {
    agent_id: t.Optional(
      t.String({ minLength: 1, maxLength: 256, description: "Refine only this agent's graph" }),
    ),
    dataset_id: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 256,
        description: "Refine only the part of the graph grounded in this dataset's memories",
      }),
    ),
    passes: t.Optional(
      t.Array(PassName, {
        minItems: 1,
        maxItems: PASS_ORDER.length,
        description:
          "Which passes to run (they always run in the order dedupe, infer, summarize, reweight, prune); default REFINE_DEFAULT_PASSES. infer and summarize run only when named here or in REFINE_DEFAULT_PASSES",
      }),
    ),
    dry_run: t.Optional(
      Type.Boolean({
        default: false,
        description:
          "Record what would change (GET /v1/refine/{job_id} lists it) and change nothing",
      }),
    ),
  },
  { additionalProperties: false },
);

export const RefineQueued = t.Object(
  {
    job_id: t.String(),
    state: t.Literal("queued"),
    agent_id: t.Union([t.String(), t.Null()]),
    dataset_id: t.Union([t.String(), t.Null()]),
    passes: t.Array(PassName),
    dry_run: t.Boolean(),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

const Counts = t.Record(t.String(), t.Number());

export const RefineChange = t.Object(
  {
    seq: t.Integer({ minimum: 1 }),
    pass: PassName,
    action: t.String({
      description: "merge, expire_edge, infer, summarize, reuse_summary, retire, reweight, prune",
    }),
    target_kind: t.Union([t.Literal("memo"), t.Literal("edge"), t.Literal("memory")]),
    target_id: t.String(),
    reason: t.String(),
    detail: t.Record(t.String(), t.Unknown()),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

export const RefineStatus = t.Object(
  {
    job_id: t.String(),
    state: t.Union([
      t.Literal("queued"),
      t.Literal("running"),
      t.Literal("succeeded"),
      t.Literal("failed"),
      t.Literal("rejected"),
    ]),
    trigger: t.Union([t.Literal("api"), t.Literal("scheduler")]),
    agent_id: t.Union([t.String(), t.Null()]),
    dataset_id: t.Union([t.String(), t.Null()]),
    dry_run: t.Boolean(),
    passes: t.Array(
      t.Object(
        {
          name: PassName,
          state: t.Union([t.Literal("pending"), t.Literal("running"), t.Literal("done")]),
          counts: Counts,
          duration_ms: t.Integer({ minimum: 0 }),
          batches: t.Integer({ minimum: 0 }),
          notes: t.Array(t.String()),
        },
        { additionalProperties: false },
      ),
    ),
    changes_total: t.Integer({ minimum: 0 }),
    waiting_for: t.Union([t.String(), t.Null()], {
      description:
        "Another refine run of this tenant this one waits for (one run per tenant at a time)",
    }),
    error: t.Union([t.String(), t.Null()]),
    attempts: t.Integer({ minimum: 0 }),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
    changes: t.Object(
      { items: t.Array(RefineChange), next_cursor: t.Union([t.String(), t.Null()]) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const RefineJobParams = t.Object({ job_id: t.String() });

export const RefineStatusQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 200,
      default: 50,
      description: "Changes per page (1–200, default 50)",
    }),
  ),
  cursor: t.Optional(
    t.String({ maxLength: 512, description: "changes.next_cursor from the previous page" }),
  ),
});
