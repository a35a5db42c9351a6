// GET /v1/audit: the caller's hash-chained audit log in seq order, filtered and paginated.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { listAudit } from "../../../domain/audit/list";
import { actorOf } from "../../request-context";
import { AuditQuery, AuditRecord } from "../../../operations/schemas/audit";
import { authedErrors } from "../../../operations/schemas/common";

export const auditRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/audit",
    ({ request, query }) => listAudit(deps.db, actorOf(request), query),
    {
      query: AuditQuery,
      response: {
        200: t.Object({
          items: t.Array(AuditRecord),
          next_cursor: t.Union([t.String(), t.Null()]),
        }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Audit"],
        summary: "List the audit log (hash-chained)",
        description:
          "Rows appear once the drain has moved them from the pending table (AUDIT_DRAIN_INTERVAL_SECONDS, default 1 s). Ascending by seq, or newest first with order=desc; pass next_cursor as cursor for the next page (it keeps its order). Recompute each hash as described in docs/audit.md.",
      },
    },
  );
