// Operations on the tenant's data as a whole: export and erasure, and the MCP transport.
import { t } from "elysia";
import { requestErasure } from "../domain/erasure/request";
import { getErasureStatus } from "../domain/erasure/status";
import { exportAsStream } from "../domain/export/stream";
import { type Operation, read, write } from "./operation";
import { ErasureParams, ErasureQueued, ErasureStatus, erasureBody } from "./schemas/erasures";

export const TENANT_DATA_OPERATIONS: readonly Operation[] = [
  read("/v1/export", "export", {
    handler: {
      input: null,
      output: t.String({
        description: "application/x-ndjson: one chained record per line (docs/export.md)",
      }),
      errors: [],
      docs: {
        tags: ["Export"],
        summary: "Export the tenant's data (NDJSON stream)",
        description:
          "One line per record, in one database snapshot: a header, then datasets, memories (every version), sessions, conversations and turns, " +
          "graph memos, edges (with valid_at/invalid_at and expiry) and their provenance, relation overrides, feedback, then the audit chain head (seq and hash) and an end record. " +
          "Each line carries a SHA-256 chained over the previous one, so `svc import` refuses an altered or truncated stream naming the line. Audited as `export`. See docs/export.md.",
      },
      run: async ({ deps, actor }) => {
        const limits = {
          stallSeconds: deps.config.EXPORT_STALL_SECONDS,
          maxSeconds: deps.config.EXPORT_MAX_SECONDS,
        };
        const body = await exportAsStream(deps.db, deps.log, actor, "api", limits);
        return new Response(body, {
          headers: {
            "content-type": "application/x-ndjson; charset=utf-8",
            "content-disposition": 'attachment; filename="svc-export.ndjson"',
          },
        });
      },
    },
    audit: "export",
  }),
  // Erasure destroys content beyond recovery: admin only (docs/erasure.md).
  write("POST", "/v1/erasures", "admin", "erasure", {
    handler: {
      input: { from: "body", schema: () => erasureBody },
      status: 202,
      output: ErasureQueued,
      errors: [400, 413, 415],
      docs: {
        tags: ["Erasure"],
        summary: "Erase an agent or a subject",
        description:
          "Unlike forget (soft delete, history kept), an erasure empties the content of every " +
          "version of the matching memories (content hashes stay) and removes what was derived from them; " +
          "see docs/erasure.md. Poll GET /v1/erasures/{erasure_id}.",
      },
      run: ({ deps, actor }, body) => requestErasure(deps, actor, body),
    },
  }),
  read("/v1/erasures/:erasure_id", "admin", {
    handler: {
      input: null,
      params: ErasureParams,
      output: ErasureStatus,
      errors: [404],
      docs: {
        tags: ["Erasure"],
        summary: "Poll an erasure",
        description:
          "States: queued → running → succeeded | failed. counts grow with each committed " +
          "step; cert_id names the forget certificate (version 3) once it succeeded.",
      },
      run: ({ deps, actor }, _, params) => getErasureStatus(deps.db, actor, params.erasure_id),
    },
  }),
  // The MCP transport: any key; each tool call then needs its own operation's scope.
  write("POST", "/mcp", "any", null, { hidden: true }),
  read("/mcp", "any", { hidden: true }),
  write("DELETE", "/mcp", "any", null, { hidden: true }),
];
