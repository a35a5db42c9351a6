// svc.ensure_audit_partitions: creates this and next month's audit_log partitions (with RLS);
// idempotent.
import { Type as T } from "@sinclair/typebox";
import { ensureAuditPartitions } from "../../domain/audit/partitions";
import { defineTask } from "../define-task";

export const ensureAuditPartitionsTask = defineTask({
  name: "svc.ensure_audit_partitions",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 5,
  backoffMs: 60_000,
  schedule: { id: "ensure-audit-partitions", everyMs: () => 24 * 3_600_000 },
  run: async (_payload, deps) => ({ partitions: await ensureAuditPartitions(deps.db, new Date()) }),
});
