// API key shapes: the listing never carries the secret or its hash.
import { t } from "elysia";
import type { Scope } from "../../lib/scopes";
import { NullableTimestamp, Timestamp } from "./common";

const SCOPE_LITERALS: { [S in Scope]: S } = {
  "memories:read": "memories:read",
  "memories:write": "memories:write",
  "forge:write": "forge:write",
  "audit:read": "audit:read",
  export: "export",
  admin: "admin",
};
export const KeyScope = t.Union(
  Object.values(SCOPE_LITERALS).map((s) => t.Literal(s)) as [ReturnType<typeof t.Literal<Scope>>],
  { description: "A key scope; docs/keys.md lists which routes each one opens" },
);

export const ApiKey = t.Object(
  {
    key_id: t.String(),
    name: t.String(),
    key_start: t.String({ description: "First 12 characters of the key, for recognising it" }),
    kind: t.Union([t.Literal("standard"), t.Literal("bootstrap"), t.Literal("development")]),
    scopes: t.Array(KeyScope, { description: "What the key may do" }),
    created_at: Timestamp,
    last_used_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
  },
  { additionalProperties: false },
);

export const CreatedApiKey = t.Composite(
  [
    ApiKey,
    t.Object({ key: t.String({ description: "The plaintext key. Shown once; store it now." }) }),
  ],
  { additionalProperties: false },
);

export const CreateApiKey = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    scopes: t.Optional(
      t.Array(KeyScope, {
        minItems: 1,
        maxItems: 10,
        uniqueItems: true,
        description:
          "Scopes of the new key, each held by the calling key; default: the caller's scopes",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ApiKeyParams = t.Object({ key_id: t.String({ maxLength: 64 }) });
