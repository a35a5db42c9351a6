// The caller's usage today and month-to-date (UTC), with the effective caps they count against.
import { readCounters } from "../../data/queries/usage/usage";
import type { Database } from "../../data/pools";
import { withTenantRead } from "../../data/with-tenant";
import type { Config } from "../../config/schema";
import type { Actor } from "../actor";
import { dayKey, monthKey } from "../budgets/periods";
import { readBudgetView } from "../budgets/resolve";

export async function readUsage(db: Database, config: Config, actor: Actor, now = new Date()) {
  const day = dayKey(now);
  const month = monthKey(now);
  const { rows, view } = await withTenantRead(db, actor.orgId, async (tx) => ({
    rows: await readCounters(tx, [day, month]),
    view: await readBudgetView(tx, config),
  }));
  const counters = (period: string) => {
    const r = rows.find((x) => x.period === period);
    return {
      tokens: r?.tokens ?? 0,
      embedding_calls: r?.embedding_calls ?? 0,
      llm_calls: r?.llm_calls ?? 0,
    };
  };
  return {
    today: { date: day.slice(2), ...counters(day) },
    month_to_date: { month: month.slice(2), ...counters(month) },
    budgets: view.effective,
  };
}
