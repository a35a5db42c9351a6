// GET /v1/health: liveness. Answers while the process runs, whatever its dependencies do.
import { Elysia, t } from "elysia";
import pkg from "../../../../package.json";

export const healthRoute = () =>
  new Elysia().get("/v1/health", () => ({ status: "ok" as const, version: pkg.version }), {
    response: { 200: t.Object({ status: t.Literal("ok"), version: t.String() }) },
    detail: { tags: ["Operations"], summary: "Liveness probe", security: [] },
  });
