// Effective caps: the tenant's override, else the USAGE_BUDGET_* default, else unlimited (null),
// and never above the operator's ceiling: the lower of the two wins, so a tenant can lower the
// ceiling, not lift it.
import { readBudgetOverrides, type BudgetOverrides } from "../../data/queries/budgets/budgets";
import type { Tx } from "../../data/pools";
import type { Config } from "../../config/schema";

export type BudgetCaps = { daily_tokens: number | null; monthly_tokens: number | null };
export type BudgetView = {
  overrides: BudgetCaps;
  ceilings: BudgetCaps;
  effective: BudgetCaps;
  defaults: BudgetCaps;
  updated_at: Date | null;
};

export function defaultCaps(config: Config): BudgetCaps {
  return {
    daily_tokens: config.USAGE_BUDGET_DAILY_TOKENS ?? null,
    monthly_tokens: config.USAGE_BUDGET_MONTHLY_TOKENS ?? null,
  };
}

/** The lower of two caps, null being unlimited. */
const lower = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);

export function resolveCaps(overrides: BudgetOverrides, config: Config): BudgetCaps {
  const defaults = defaultCaps(config);
  return {
    daily_tokens: lower(
      overrides.daily_tokens ?? defaults.daily_tokens,
      overrides.ceilings.daily_tokens,
    ),
    monthly_tokens: lower(
      overrides.monthly_tokens ?? defaults.monthly_tokens,
      overrides.ceilings.monthly_tokens,
    ),
  };
}

export async function readBudgetView(tx: Tx, config: Config): Promise<BudgetView> {
  const o = await readBudgetOverrides(tx);
  return {
    overrides: { daily_tokens: o.daily_tokens, monthly_tokens: o.monthly_tokens },
    ceilings: o.ceilings,
    effective: resolveCaps(o, config),
    defaults: defaultCaps(config),
    updated_at: o.updated_at,
  };
}
