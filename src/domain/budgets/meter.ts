// Reserve-then-settle token metering. Before a provider call the estimate is reserved against the
// day's and month's counters under a row lock; a call is admitted only while spent + reserved is
// below every cap, so concurrent callers see each other and the overshoot is at most one call's
// estimate. After the call the actual tokens are added and the reservation released, in a small
// transaction.
import {
  addReserved,
  applyUsage,
  lockCounters,
  skipCommitFlush,
} from "../../data/queries/usage/usage";
import { readBudgetOverrides } from "../../data/queries/budgets/budgets";
import type { Database } from "../../data/pools";
import { withTenant } from "../../data/with-tenant";
import type { Config } from "../../config/schema";
import { AppError } from "../../lib/errors";
import type { UsageMeter } from "../../providers/usage-meter";
import { dayKey, monthKey, secondsUntilNextDay, secondsUntilNextMonth } from "./periods";
import { resolveCaps } from "./resolve";

export function exceeded(period: "daily" | "monthly", cap: number, now: Date): AppError {
  const retryAfter = period === "daily" ? secondsUntilNextDay(now) : secondsUntilNextMonth(now);
  return new AppError(
    "budget-exceeded",
    `The tenant's ${period} token budget (${cap}) is spent; it resets in ${retryAfter} s (UTC ${period === "daily" ? "midnight" : "month start"})`,
    {
      headers: { "retry-after": String(retryAfter) },
    },
  );
}

export function createUsageMeter(
  deps: { db: Database; config: Config },
  clock: () => Date = () => new Date(),
): UsageMeter {
  return {
    async reserve(orgId, estimatedTokens) {
      const now = clock();
      const periods = [dayKey(now), monthKey(now)];
      return withTenant(deps.db, orgId, async (tx) => {
        const caps = resolveCaps(await readBudgetOverrides(tx), deps.config);
        if (caps.daily_tokens === null && caps.monthly_tokens === null)
          return { orgId, periods, reserved: 0 };
        await skipCommitFlush(tx);
        const rows = new Map((await lockCounters(tx, orgId, periods)).map((r) => [r.period, r]));
        const day = rows.get(periods[0]!)!;
        const month = rows.get(periods[1]!)!;
        if (caps.daily_tokens !== null && day.tokens + day.reserved_tokens >= caps.daily_tokens)
          throw exceeded("daily", caps.daily_tokens, now);
        if (
          caps.monthly_tokens !== null &&
          month.tokens + month.reserved_tokens >= caps.monthly_tokens
        )
          throw exceeded("monthly", caps.monthly_tokens, now);
        await addReserved(tx, periods, estimatedTokens);
        return { orgId, periods, reserved: estimatedTokens };
      });
    },
    async settle(reservation, spend) {
      await withTenant(deps.db, reservation.orgId, async (tx) => {
        await skipCommitFlush(tx);
        await applyUsage(tx, reservation.orgId, reservation.periods, {
          tokens: spend.tokens,
          embeddingCalls: spend.embeddingCalls ?? 0,
          llmCalls: spend.llmCalls ?? 0,
          releaseReserved: reservation.reserved,
        });
      });
    },
  };
}
