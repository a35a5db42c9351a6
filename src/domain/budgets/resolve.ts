// Effective caps: the tenant's override, else the USAGE_BUDGET_* default, else unlimited (null).
import { readBudgetOverrides, type BudgetOverrides } from "../../data/queries/budgets";
import type { Tx } from "../../data/pools";
import type { Config } from "../../config/schema";

export type BudgetCaps = { daily_tokens: number | null; monthly_tokens: number | null };
export type BudgetView = { overrides: BudgetCaps; effective: BudgetCaps; defaults: BudgetCaps; updated_at: Date | null };

export function defaultCaps(config: Config): BudgetCaps {
  return { daily_tokens: config.USAGE_BUDGET_DAILY_TOKENS ?? null, monthly_tokens: config.USAGE_BUDGET_MONTHLY_TOKENS ?? null };
}

export function resolveCaps(overrides: BudgetOverrides, config: Config): BudgetCaps {
  const defaults = defaultCaps(config);
  return { daily_tokens: overrides.daily_tokens ?? defaults.daily_tokens, monthly_tokens: overrides.monthly_tokens ?? defaults.monthly_tokens };
}

export async function readBudgetView(tx: Tx, config: Config): Promise<BudgetView> {
  const o = await readBudgetOverrides(tx);
  return { overrides: { daily_tokens: o.daily_tokens, monthly_tokens: o.monthly_tokens }, effective: resolveCaps(o, config), defaults: defaultCaps(config), updated_at: o.updated_at };
}
