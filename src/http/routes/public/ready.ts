// GET /v1/ready: 200 when the database answers, migrations are applied and Valkey answers; else 503 problem.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { checkReadiness } from "../../../domain/health/readiness";
import { AppError } from "../../../domain/errors";
import { Problem } from "../../schemas/common";

const Check = t.Union([t.Literal("ok"), t.Literal("failing"), t.Literal("embedded")]);

export const readyRoute = (deps: Deps) => new Elysia().get("/v1/ready", async () => {
  const readiness = await checkReadiness(deps.db, deps.redis);
  if (!readiness.ready) throw new AppError("service-unavailable", `Not ready: ${readiness.problems.join("; ")}`, { fields: { checks: readiness.checks } });
  return { status: "ready" as const, mode: deps.db.kind, checks: readiness.checks };
}, {
  response: { 200: t.Object({ status: t.Literal("ready"), mode: t.Union([t.Literal("postgres"), t.Literal("embedded")]), checks: t.Object({ database: Check, migrations: Check, valkey: Check }) }), 503: Problem },
  detail: { tags: ["Operations"], summary: "Readiness: database, migrations, Valkey", security: [] },
});
