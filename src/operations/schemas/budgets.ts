// Budget and usage schemas.
import { t } from "elysia";

const Cap = t.Union([t.Integer({ minimum: 0 }), t.Null()]);
const Caps = t.Object({ daily_tokens: Cap, monthly_tokens: Cap });

export const Budgets = t.Object({
  org_id: t.String(),
  overrides: t.Object(
    { daily_tokens: Cap, monthly_tokens: Cap },
    { description: "The tenant's own values; null = not overridden" },
  ),
  ceilings: t.Object(
    { daily_tokens: Cap, monthly_tokens: Cap },
    { description: "The operator's caps, set by the superadmin; null = no ceiling" },
  ),
  effective: t.Object(
    { daily_tokens: Cap, monthly_tokens: Cap },
    {
      description:
        "Override, else USAGE_BUDGET_* default, else null = unlimited; never above the ceiling",
    },
  ),
  defaults: Caps,
  updated_at: t.Union([t.Date(), t.Null()]),
});

const CapInput = t.Union([t.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), t.Null()]);
export const BudgetsUpdate = t.Object(
  {
    daily_tokens: t.Optional(CapInput),
    monthly_tokens: t.Optional(CapInput),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      "Replaces both overrides; an omitted field is cleared (null). At least one of the two fields is required, so a body with only unknown fields is a 422 rather than a silent reset",
  },
);

const Counters = { tokens: t.Integer(), embedding_calls: t.Integer(), llm_calls: t.Integer() };
export const Usage = t.Object({
  today: t.Object({ date: t.String({ description: "UTC day, YYYY-MM-DD" }), ...Counters }),
  month_to_date: t.Object({ month: t.String({ description: "UTC month, YYYY-MM" }), ...Counters }),
  budgets: Caps,
});
