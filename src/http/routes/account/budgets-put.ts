// PUT /v1/tenants/me/budgets: replace the caller's overrides (non-negative integers, or null to
// clear).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { replaceBudgets } from "../../../domain/budgets/manage";
import { actorOf } from "../../request-context";
import { Budgets, BudgetsUpdate } from "../../../operations/schemas/budgets";
import { authedErrors } from "../../../operations/schemas/common";

export const putOwnBudgetsRoute = (deps: Deps) =>
  new Elysia().put(
    "/v1/tenants/me/budgets",
    ({ request, body }) => replaceBudgets(deps.db, deps.config, actorOf(request), body),
    {
      parse: "json",
      body: BudgetsUpdate,
      response: { 200: Budgets, ...authedErrors(400, 413, 415) },
      detail: { tags: ["Usage and budgets"], summary: "Replace the caller's budget overrides" },
    },
  );
