// Charging an in-process provider call (the local embedder) inside the caller's own tenant
// transaction: the spend is added to the day's and month's counters, and the transaction fails with
// budget-exceeded when a cap had already been reached before it, exactly where reserve() would have
// refused. The counter rows stay locked until the caller commits, so concurrent charges serialise
// per tenant and the overshoot is at most one call's tokens, as with reserve-then-settle.
import { readBudgetOverrides } from "../../data/queries/budgets/budgets";
import { chargeCounters } from "../../data/queries/usage/usage";
import type { Tx } from "../../data/pools";
import type { Config } from "../../config/schema";
import { dayKey, monthKey } from "./periods";
import { exceeded } from "./meter";
import { resolveCaps } from "./resolve";

export type InProcessSpend = { tokens: number; embeddingCalls: number };

export async function chargeInTransaction(
  tx: Tx,
  config: Config,
  orgId: string,
  spend: InProcessSpend,
  now = new Date(),
): Promise<void> {
  const periods = [dayKey(now), monthKey(now)];
  // Issued together: one round trip for both.
  const [overrides, counters] = await Promise.all([
    readBudgetOverrides(tx),
    chargeCounters(tx, orgId, periods, spend.tokens, spend.embeddingCalls),
  ]);
  const caps = resolveCaps(overrides, config);
  const before = (period: string) => {
    const row = counters.find((c) => c.period === period)!;
    return row.tokens - spend.tokens + row.reserved_tokens;
  };
  if (caps.daily_tokens !== null && before(periods[0]!) >= caps.daily_tokens)
    throw exceeded("daily", caps.daily_tokens, now);
  if (caps.monthly_tokens !== null && before(periods[1]!) >= caps.monthly_tokens)
    throw exceeded("monthly", caps.monthly_tokens, now);
}
