// The superadmin's view of any tenant's budgets: the org must exist (404), then the work runs
// inside that org's tenant transaction (app.current_org_id = the path's org), never with a bypass
// role.
import type { Ports } from "../ports/ports";
import { findOrgById } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";
import type { Actor } from "../actor";
import { forbidden, notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";
import { getBudgets, replaceBudgets, type BudgetUpdate } from "./manage";

export type SuperadminCall = { role: string | undefined; orgId: string; requestId: string | null };

async function targetOrg(
  deps: Pick<Ports, "db" | "config" | "log">,
  call: SuperadminCall,
  action: "read" | "replace",
): Promise<string> {
  if (call.role !== "superadmin") throw forbidden("This route needs the superadmin key");
  deps.log.info({
    msg: "superadmin budgets call",
    action,
    target_org: call.orgId,
    request_id: call.requestId,
  });
  if (
    !looksLikeId("org", call.orgId) ||
    !(await withSystem(deps.db, (tx) => findOrgById(tx, call.orgId)))
  )
    throw notFound("Organisation");
  return call.orgId;
}

export async function superadminGetBudgets(
  deps: Pick<Ports, "db" | "config" | "log">,
  call: SuperadminCall,
) {
  return getBudgets(deps.db, deps.config, await targetOrg(deps, call, "read"));
}

export async function superadminReplaceBudgets(
  deps: Pick<Ports, "db" | "config" | "log">,
  call: SuperadminCall,
  update: BudgetUpdate,
) {
  const orgId = await targetOrg(deps, call, "replace");
  const actor: Actor = { orgId, keyId: null, requestId: call.requestId, role: "superadmin" };
  return replaceBudgets(deps.db, deps.config, actor, update);
}
