// Reading and replacing a tenant's budget overrides, for the tenant itself and for the superadmin.
import { writeBudgetOverrides } from "../../data/queries/budgets";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Config } from "../../config/schema";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { readBudgetView, type BudgetCaps } from "./resolve";

export type BudgetUpdate = { daily_tokens?: number | null; monthly_tokens?: number | null };

const publicView = (orgId: string, view: Awaited<ReturnType<typeof readBudgetView>>) => ({ org_id: orgId, ...view });

export async function getBudgets(db: Database, config: Config, orgId: string) {
  return publicView(orgId, await withTenantRead(db, orgId, (tx) => readBudgetView(tx, config)));
}

/** PUT semantics: the body replaces both overrides; an omitted field is cleared like an explicit null. */
export async function replaceBudgets(db: Database, config: Config, actor: Actor, update: BudgetUpdate) {
  const next: BudgetCaps = { daily_tokens: update.daily_tokens ?? null, monthly_tokens: update.monthly_tokens ?? null };
  const view = await withTenant(db, actor.orgId, async (tx) => {
    await writeBudgetOverrides(tx, actor.orgId, next.daily_tokens, next.monthly_tokens);
    await recordAudit(tx, actor, { operation: "budget.update", detail: { ...next, by: actor.role } });
    return readBudgetView(tx, config);
  });
  return publicView(actor.orgId, view);
}
