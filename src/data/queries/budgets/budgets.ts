// tenant_budgets: the tenant's own overrides and the operator's ceilings (NULL = none), kept in
// separate columns written by separate statements. Runs inside a tenant transaction.
import type { Tx } from "../../pools";

export type TokenCaps = { daily_tokens: number | null; monthly_tokens: number | null };
export type BudgetOverrides = TokenCaps & { ceilings: TokenCaps; updated_at: Date | null };

type Row = {
  daily_tokens: string | null;
  monthly_tokens: string | null;
  ceiling_daily_tokens: string | null;
  ceiling_monthly_tokens: string | null;
  updated_at: Date;
};

const NONE: TokenCaps = { daily_tokens: null, monthly_tokens: null };

const asNumber = (value: string | null) => (value === null ? null : Number(value));

export async function readBudgetOverrides(tx: Tx): Promise<BudgetOverrides> {
  const rows = await tx<Row[]>`
    SELECT daily_tokens::text, monthly_tokens::text, ceiling_daily_tokens::text,
      ceiling_monthly_tokens::text, updated_at
    FROM tenant_budgets`;
  const row = rows[0];
  if (!row) return { ...NONE, ceilings: NONE, updated_at: null };
  return {
    daily_tokens: asNumber(row.daily_tokens),
    monthly_tokens: asNumber(row.monthly_tokens),
    ceilings: {
      daily_tokens: asNumber(row.ceiling_daily_tokens),
      monthly_tokens: asNumber(row.ceiling_monthly_tokens),
    },
    updated_at: row.updated_at,
  };
}

/** The tenant's own values; the operator's ceilings are left as they are. */
export async function writeBudgetOverrides(
  tx: Tx,
  orgId: string,
  daily: number | null,
  monthly: number | null,
): Promise<void> {
  await tx`
    INSERT INTO tenant_budgets (org_id, daily_tokens, monthly_tokens) VALUES (${orgId}, ${daily}, ${monthly})
    ON CONFLICT (org_id) DO UPDATE SET daily_tokens = EXCLUDED.daily_tokens, monthly_tokens = EXCLUDED.monthly_tokens, updated_at = now()`;
}

/** The operator's ceilings; the tenant's own values are left as they are. */
export async function writeBudgetCeilings(
  tx: Tx,
  orgId: string,
  daily: number | null,
  monthly: number | null,
): Promise<void> {
  await tx`
    INSERT INTO tenant_budgets (org_id, ceiling_daily_tokens, ceiling_monthly_tokens) VALUES (${orgId}, ${daily}, ${monthly})
    ON CONFLICT (org_id) DO UPDATE
      SET ceiling_daily_tokens = EXCLUDED.ceiling_daily_tokens, ceiling_monthly_tokens = EXCLUDED.ceiling_monthly_tokens, updated_at = now()`;
}
