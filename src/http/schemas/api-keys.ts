// API key shapes: the listing never carries the secret or its hash.
import { t } from "elysia";
import { NullableTimestamp, Timestamp } from "./common";

export const ApiKey = t.Object({
  key_id: t.String(),
  name: t.String(),
  key_start: t.String({ description: "First 12 characters of the key, for recognising it" }),
  kind: t.Union([t.Literal("standard"), t.Literal("bootstrap"), t.Literal("development")]),
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
}, { additionalProperties: false });

export const CreatedApiKey = t.Composite([ApiKey, t.Object({ key: t.String({ description: "The plaintext key. Shown once; store it now." }) })], { additionalProperties: false });
