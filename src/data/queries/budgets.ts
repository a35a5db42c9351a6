// tenant_budgets: the caller's raw overrides (NULL = not overridden). Runs inside a tenant transaction.
import type { Tx } from "../pools";

export type BudgetOverrides = { daily_tokens: number | null; monthly_tokens: number | null; updated_at: Date | null };

export async function readBudgetOverrides(tx: Tx): Promise<BudgetOverrides> {
  const rows = await tx<{ daily_tokens: string | null; monthly_tokens: string | null; updated_at: Date }[]>`
    SELECT daily_tokens::text, monthly_tokens::text, updated_at FROM tenant_budgets`;
  const row = rows[0];
  if (!row) return { daily_tokens: null, monthly_tokens: null, updated_at: null };
  return { daily_tokens: row.daily_tokens === null ? null : Number(row.daily_tokens), monthly_tokens: row.monthly_tokens === null ? null : Number(row.monthly_tokens), updated_at: row.updated_at };
}

export async function writeBudgetOverrides(tx: Tx, orgId: string, daily: number | null, monthly: number | null): Promise<void> {
  await tx`
    INSERT INTO tenant_budgets (org_id, daily_tokens, monthly_tokens) VALUES (${orgId}, ${daily}, ${monthly})
    ON CONFLICT (org_id) DO UPDATE SET daily_tokens = EXCLUDED.daily_tokens, monthly_tokens = EXCLUDED.monthly_tokens, updated_at = now()`;
}
