// Superadmin operations (SUPERADMIN_ENABLED): any tenant's budget overrides and effective caps, read
// and replaced with the superadmin key, which has no tenant of its own.
import { t } from "elysia";
import { superadminGetBudgets, superadminReplaceBudgets } from "../domain/budgets/superadmin";
import { type Call, type Operation, read, write } from "./operation";
import { Budgets, BudgetsUpdate } from "./schemas/budgets";

const tags = ["Superadmin"];
const superadmin = { gate: "superadmin" } as const;
const OrgParams = t.Object({ org_id: t.String({ maxLength: 64 }) });
const security = [{ bearer: [] }];

/** The domain checks the caller's role itself, and names the tenant the path names. */
const target = ({ caller }: Call, params: { org_id: string }) => ({
  role: caller.role,
  orgId: params.org_id,
  requestId: caller.requestId,
});

export const SUPERADMIN_OPERATIONS: readonly Operation[] = [
  read("/v1/tenants/:org_id/budgets", "superadmin", {
    ...superadmin,
    handler: {
      input: null,
      params: OrgParams,
      output: Budgets,
      errors: [404],
      docs: {
        tags,
        summary: "Superadmin: read a tenant's budget overrides and effective caps",
        security,
      },
      run: (call, _, params) => superadminGetBudgets(call.deps, target(call, params)),
    },
  }),
  write("PUT", "/v1/tenants/:org_id/budgets", "superadmin", "budget.update", {
    ...superadmin,
    handler: {
      input: { from: "body", schema: () => BudgetsUpdate },
      params: OrgParams,
      output: Budgets,
      errors: [400, 404, 413, 415],
      docs: {
        tags,
        summary:
          "Superadmin: replace a tenant's budget ceilings (the operator's caps, which the tenant can lower, never raise)",
        security,
      },
      run: (call, body, params) => superadminReplaceBudgets(call.deps, target(call, params), body),
    },
  }),
];
