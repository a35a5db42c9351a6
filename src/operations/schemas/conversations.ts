// Conversation and turn schemas.
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { TURN_ROLES } from "../../domain/conversations/turns";
import { NullableTimestamp, Timestamp } from "./common";
import { EventTimeInput } from "./memories";

const MetadataInput = t.Optional(
  t.Unknown({ description: "JSON object, at most MEMORY_METADATA_MAX_BYTES" }),
);

export const Conversation = t.Object({
  conversation_id: t.String(),
  agent_id: t.String(),
  title: t.Union([t.String(), t.Null()]),
  metadata: t.Record(t.String(), t.Unknown()),
  state: t.Union([t.Literal("open"), t.Literal("deleted")], {
    description: "open → deleted (soft, final)",
  }),
  turn_count: t.Integer({ minimum: 0 }),
  turns_since_summary: t.Integer({ minimum: 0 }),
  needs_summary: t.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const OpenConversation = t.Object(
  {
    agent_id: t.String({ minLength: 1, maxLength: 256 }),
    title: t.Optional(t.String({ maxLength: 500 })),
    metadata: MetadataInput,
  },
  { additionalProperties: false },
);

export const ConversationParams = t.Object({ conversation_id: t.String({ maxLength: 64 }) });

const Role = t.Union(
  TURN_ROLES.map((r) => t.Literal(r)),
  { description: "`summary` marks a summary of the turns before it and resets needs_summary" },
);

export const AppendTurn = (config: Config) =>
  t.Object(
    {
      role: Role,
      content: t.String({ minLength: 1, maxLength: config.MEMORY_CONTENT_MAX_CHARS }),
      metadata: MetadataInput,
      occurred_at: t.Optional(EventTimeInput),
    },
    { additionalProperties: false },
  );

export const AppendedTurn = t.Object({
  conversation_id: t.String(),
  turn_index: t.Integer({ minimum: 0, description: "Contiguous from 0 per conversation" }),
  role: Role,
  memory_id: t.String({
    description:
      "The turn's memory (memory_type `turn`), reachable by recall for the conversation's agent",
  }),
  needs_summary: t.Boolean({
    description:
      "true once CONVERSATION_SUMMARY_TURNS turns or CONVERSATION_SUMMARY_TOKENS estimated tokens were appended since the last `summary` turn",
  }),
  turns_since_summary: t.Integer({ minimum: 0 }),
  created_at: Timestamp,
  occurred_at: t.Date({ description: "When the turn was said (its memory's event time)" }),
});

export const TurnsQuery = t.Object({
  after_turn: t.Optional(
    t.Integer({
      minimum: -1,
      maximum: 2_147_483_647,
      default: -1,
      description: "List turns with turn_index > after_turn (default -1: from the first)",
    }),
  ),
  limit: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 200,
      default: 50,
      description: "Page size (1–200, default 50)",
    }),
  ),
});

export const TurnPage = t.Object({
  items: t.Array(
    t.Object({
      turn_index: t.Integer(),
      role: t.String(),
      memory_id: t.String(),
      content: t.Union([t.String(), t.Null()], {
        description: "null once the turn's memory was forgotten",
      }),
      metadata: t.Record(t.String(), t.Unknown()),
      forgotten: t.Boolean(),
      created_at: Timestamp,
      occurred_at: t.Union([t.Date(), t.Null()], {
        description: "When the turn was said; null once the turn's memory was forgotten",
      }),
    }),
  ),
  next_after_turn: t.Union([t.Integer(), t.Null()], {
    description: "Pass as after_turn for the next page; null at the end",
  }),
});
