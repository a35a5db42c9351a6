// Subject erasure request and status shapes (POST /v1/erasures, GET /v1/erasures/{erasure_id}).
import { t } from "elysia";
import { NullableTimestamp, Timestamp } from "./common";

const Subject = t.Object(
  {
    key: t.String({
      minLength: 1,
      maxLength: 256,
      description: "A metadata key naming the subject, e.g. user_id",
    }),
    value: t.String({
      minLength: 1,
      maxLength: 1024,
      description: "The subject's value under that key (string equality)",
    }),
  },
  {
    additionalProperties: false,
    description:
      "Erase only memories (any version), conversations and " +
      "sessions whose metadata holds key = value; without it the whole agent is erased",
  },
);

export const erasureBody = t.Object(
  {
    agent_id: t.String({
      minLength: 1,
      maxLength: 256,
      description: "The agent whose memories are erased",
    }),
    subject: t.Optional(Subject),
  },
  { additionalProperties: false },
);

export const ErasureQueued = t.Object(
  {
    erasure_id: t.String(),
    state: t.Literal("queued"),
    agent_id: t.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

export const ErasureParams = t.Object({ erasure_id: t.String() });

const State = t.Union([
  t.Literal("queued"),
  t.Literal("running"),
  t.Literal("succeeded"),
  t.Literal("failed"),
]);

export const ErasureStatus = t.Object(
  {
    erasure_id: t.String(),
    state: State,
    agent_id: t.String(),
    subject_key: t.Union([t.String(), t.Null()], {
      description: "The subject's metadata key; its value is never returned",
    }),
    counts: t.Record(t.String(), t.Integer({ minimum: 0 }), {
      description: "Row class → rows touched so far (docs/erasure.md lists the classes)",
    }),
    cert_id: t.Union([t.String(), t.Null()], {
      description:
        "When succeeded with " +
        "FORGET_PROOF_ENABLED and anything erased: GET /v1/forget/{cert_id}",
    }),
    error: t.Union([t.String(), t.Null()]),
    created_at: Timestamp,
    finished_at: NullableTimestamp,
  },
  { additionalProperties: false },
);
