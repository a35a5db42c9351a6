// GET /v1/tenants/me/budgets: the caller's raw overrides and the resolved effective caps.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { getBudgets } from "../../../domain/budgets/manage";
import { actorOf } from "../../request-context";
import { Budgets } from "../../../operations/schemas/budgets";
import { authedErrors } from "../../../operations/schemas/common";

export const getOwnBudgetsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/tenants/me/budgets",
    ({ request }) => getBudgets(deps.db, deps.config, actorOf(request).orgId),
    {
      response: { 200: Budgets, ...authedErrors() },
      detail: {
        tags: ["Usage and budgets"],
        summary: "Read the caller's budget overrides and effective caps",
      },
    },
  );
