// GET /v1/export: the caller's tenant data as a chained NDJSON stream (docs/export.md).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { exportAsStream } from "../../../domain/export/stream";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";

export const exportRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/export",
    async ({ request }) => {
      const limits = {
        stallSeconds: deps.config.EXPORT_STALL_SECONDS,
        maxSeconds: deps.config.EXPORT_MAX_SECONDS,
      };
      const body = await exportAsStream(deps.db, deps.log, actorOf(request), "api", limits);
      return new Response(body, {
        headers: {
          "content-type": "application/x-ndjson; charset=utf-8",
          "content-disposition": 'attachment; filename="svc-export.ndjson"',
        },
      });
    },
    {
      response: {
        200: t.String({
          description: "application/x-ndjson: one chained record per line (docs/export.md)",
        }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Export"],
        summary: "Export the tenant's data (NDJSON stream)",
        description:
          "One line per record, in one database snapshot: a header, then datasets, memories (every version), sessions, conversations and turns, " +
          "graph memos, edges (with valid_at/invalid_at and expiry) and their provenance, relation overrides, feedback, then the audit chain head (seq and hash) and an end record. " +
          "Each line carries a SHA-256 chained over the previous one, so `svc import` refuses an altered or truncated stream naming the line. Audited as `export`. See docs/export.md.",
      },
    },
  );
