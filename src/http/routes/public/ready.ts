// GET /v1/ready: 200 when the database answers, migrations are applied and Valkey answers; else 503
// problem. The 200 body also says which embedding generation serves and how far a re-embed is.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../operations/deps";
import { checkReadiness } from "../../../domain/health/readiness";
import { AppError } from "../../../lib/errors";
import { Problem } from "../../../operations/schemas/common";

const Check = t.Union([t.Literal("ok"), t.Literal("failing"), t.Literal("embedded")]);
const Generation = { model: t.String(), dims: t.Integer() };
const Embeddings = t.Object({
  configured: t.Object(Generation),
  serving: t.Array(t.Object({ ...Generation, tenants: t.Integer() }), {
    description: "Tenants per embedding generation VECTOR recall reads",
  }),
  reembed: t.Array(
    t.Object({
      from: t.Object(Generation),
      to: t.Object(Generation),
      tenants: t.Integer(),
      done: t.Integer(),
      total: t.Integer(),
    }),
    {
      description:
        "Re-embeds under way (docs/embeddings.md): current memories with a vector of `to`, of all; recall serves `from` until a tenant is complete",
    },
  ),
  graph_backlog: t.Integer({
    description:
      "Batch-stored memories whose vector waits for the HNSW graph (docs/recall.md, the vector backlog); recall scores them exactly meanwhile",
  }),
});

export const readyRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/ready",
    async () => {
      const redis = deps.redis;
      const pingValkey = redis ? () => redis.ping() : null;
      const readiness = await checkReadiness(deps.db, pingValkey, deps.embeddings.progress);
      if (!readiness.ready)
        throw new AppError("service-unavailable", `Not ready: ${readiness.problems.join("; ")}`, {
          fields: { checks: readiness.checks },
        });
      return {
        status: "ready" as const,
        mode: deps.db.kind,
        checks: readiness.checks,
        ...(readiness.embeddings ? { embeddings: readiness.embeddings } : {}),
      };
    },
    {
      response: {
        200: t.Object({
          status: t.Literal("ready"),
          mode: t.Union([t.Literal("postgres"), t.Literal("embedded")]),
          checks: t.Object({ database: Check, migrations: Check, valkey: Check }),
          embeddings: t.Optional(Embeddings),
        }),
        503: Problem,
      },
      detail: {
        tags: ["Operations"],
        summary:
          "Readiness: database, migrations, Valkey; embedding generations and re-embed progress",
        security: [],
      },
    },
  );
