// Conversations, forget certificates: the accountability area's variables (budgets live in
// limits.ts).
import { Type as T } from "@sinclair/typebox";

export const accountabilitySection = {
  CONVERSATION_SUMMARY_TURNS: T.Integer({
    default: 20,
    minimum: 1,
    description:
      "needs_summary becomes true once this many turns were appended since the last `summary` turn",
  }),
  CONVERSATION_SUMMARY_TOKENS: T.Integer({
    default: 4000,
    minimum: 1,
    description:
      "…or once the turns since the last `summary` turn hold this many estimated tokens (characters / 4)",
  }),
  FORGET_SIGNING_KEY: T.Optional(
    T.String({
      pattern: "^[A-Za-z0-9+/]{43}=$",
      description:
        "Base64 32-byte ed25519 seed for forget certificates; unset: generated once and persisted (see docs/forget-certificates.md)",
    }),
  ),
};
