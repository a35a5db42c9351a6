// Session schemas.
import { t } from "elysia";
import { NullableTimestamp, Timestamp } from "./common";

export const Session = t.Object({
  session_id: t.String(),
  agent_id: t.String(),
  metadata: t.Record(t.String(), t.Unknown()),
  state: t.Union([t.Literal("active"), t.Literal("ended")], {
    description: "active → ended (final)",
  }),
  started_at: Timestamp,
  ended_at: NullableTimestamp,
});

export const StartSession = t.Object(
  {
    agent_id: t.String({ minLength: 1, maxLength: 256 }),
    metadata: t.Optional(
      t.Unknown({ description: "JSON object, at most MEMORY_METADATA_MAX_BYTES" }),
    ),
  },
  { additionalProperties: false },
);

export const SessionParams = t.Object({ session_id: t.String({ maxLength: 64 }) });
