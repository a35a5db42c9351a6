// GET /v1/tenants/{org_id}/budgets (superadmin): another tenant's overrides and effective caps.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { superadminGetBudgets } from "../../../domain/budgets/superadmin";
import { contextOf } from "../../request-context";
import { Budgets } from "../../../operations/schemas/budgets";
import { authedErrors } from "../../../operations/schemas/common";

export const superadminGetBudgetsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/tenants/:org_id/budgets",
    ({ request, params }) => {
      const ctx = contextOf(request);
      return superadminGetBudgets(deps, {
        role: ctx?.identity?.role,
        orgId: params.org_id,
        requestId: ctx?.requestId ?? null,
      });
    },
    {
      params: t.Object({ org_id: t.String({ maxLength: 64 }) }),
      response: { 200: Budgets, ...authedErrors(404) },
      detail: {
        tags: ["Superadmin"],
        summary: "Superadmin: read a tenant's budget overrides and effective caps",
        security: [{ bearer: [] }],
      },
    },
  );
