// PUT /v1/tenants/{org_id}/budgets (superadmin): replace another tenant's ceilings (the operator's
// caps).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { superadminReplaceBudgets } from "../../../domain/budgets/superadmin";
import { contextOf } from "../../request-context";
import { Budgets, BudgetsUpdate } from "../../../operations/schemas/budgets";
import { authedErrors } from "../../../operations/schemas/common";

export const superadminPutBudgetsRoute = (deps: Deps) =>
  new Elysia().put(
    "/v1/tenants/:org_id/budgets",
    ({ request, params, body }) => {
      const ctx = contextOf(request);
      return superadminReplaceBudgets(
        deps,
        { role: ctx?.identity?.role, orgId: params.org_id, requestId: ctx?.requestId ?? null },
        body,
      );
    },
    {
      parse: "json",
      params: t.Object({ org_id: t.String({ maxLength: 64 }) }),
      body: BudgetsUpdate,
      response: { 200: Budgets, ...authedErrors(400, 404, 413, 415) },
      detail: {
        tags: ["Superadmin"],
        summary:
          "Superadmin: replace a tenant's budget ceilings (the operator's caps, which the tenant can lower, never raise)",
        security: [{ bearer: [] }],
      },
    },
  );
