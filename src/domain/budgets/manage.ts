// Reading and replacing budget caps: a tenant replaces its own overrides, the superadmin the
// operator's ceilings of a tenant; each write leaves the other's values alone.
import { writeBudgetCeilings, writeBudgetOverrides } from "../../data/queries/budgets/budgets";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Config } from "../../config/schema";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { readBudgetView, type BudgetCaps } from "./resolve";

export type BudgetUpdate = { daily_tokens?: number | null; monthly_tokens?: number | null };

const publicView = (orgId: string, view: Awaited<ReturnType<typeof readBudgetView>>) => ({
  org_id: orgId,
  ...view,
});

export async function getBudgets(db: Database, config: Config, orgId: string) {
  return publicView(orgId, await withTenantRead(db, orgId, (tx) => readBudgetView(tx, config)));
}

/**
 * PUT semantics: the body replaces both values (an omitted field is cleared like an explicit null):
 * the tenant's overrides, or, for the superadmin, the operator's ceilings.
 */
export async function replaceBudgets(
  db: Database,
  config: Config,
  actor: Actor,
  update: BudgetUpdate,
) {
  const next: BudgetCaps = {
    daily_tokens: update.daily_tokens ?? null,
    monthly_tokens: update.monthly_tokens ?? null,
  };
  const view = await withTenant(db, actor.orgId, async (tx) => {
    const write = actor.role === "superadmin" ? writeBudgetCeilings : writeBudgetOverrides;
    await write(tx, actor.orgId, next.daily_tokens, next.monthly_tokens);
    await recordAudit(tx, actor, {
      operation: "budget.update",
      detail: {
        ...next,
        by: actor.role,
        sets: actor.role === "superadmin" ? "ceilings" : "overrides",
      },
    });
    return readBudgetView(tx, config);
  });
  return publicView(actor.orgId, view);
}
