// Audit row and listing schemas for GET /v1/audit.
import { t } from "elysia";

export const AuditRecord = t.Object({
  seq: t.Integer({ description: "Gapless per-org position in the chain, from 1" }),
  occurred_at: t.Date({ description: "When the audited effect committed its pending row" }),
  occurred_at_us: t.Integer({
    description:
      "occurred_at as integer microseconds since the Unix epoch: the value the hash covers",
  }),
  operation: t.String(),
  agent_id: t.Union([t.String(), t.Null()]),
  key_id: t.Union([t.String(), t.Null()]),
  request_id: t.Union([t.String(), t.Null()]),
  target_ids: t.Array(t.String()),
  detail: t.Record(t.String(), t.Unknown()),
  prev_hash: t.String({ description: "Hex SHA-256 of the previous row (64 zeros for seq 1)" }),
  hash: t.String({
    description: "Hex SHA-256(prev_hash bytes ‖ canonical JSON of the row); see docs/audit.md",
  }),
});

export const AuditQuery = t.Object({
  agent_id: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  operation: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  since: t.Optional(
    t.String({
      maxLength: 64,
      description: "ISO 8601 date or date-time; rows with occurred_at ≥ since",
    }),
  ),
  until: t.Optional(
    t.String({
      maxLength: 64,
      description: "ISO 8601 date or date-time; rows with occurred_at ≤ until",
    }),
  ),
  order: t.Optional(
    t.Union([t.Literal("asc"), t.Literal("desc")], {
      description:
        "asc (default): oldest first; desc: newest first. A cursor keeps the order it was issued in",
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
  cursor: t.Optional(
    t.String({ maxLength: 512, description: "next_cursor from the previous page" }),
  ),
});
