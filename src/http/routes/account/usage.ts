// GET /v1/usage: token, embedding-call and LLM-call counters, today and month-to-date (UTC).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readUsage } from "../../../domain/usage/read";
import { actorOf } from "../../request-context";
import { Usage } from "../../../operations/schemas/budgets";
import { authedErrors } from "../../../operations/schemas/common";

export const usageRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/usage",
    ({ request }) => readUsage(deps.db, deps.config, actorOf(request)),
    {
      response: { 200: Usage, ...authedErrors() },
      detail: {
        tags: ["Usage and budgets"],
        summary: "Usage counters, today and month-to-date (UTC)",
      },
    },
  );
