// svc.audit_drain: moves pending audit rows into each org's hash chain (all orgs, or one when
// org_id is given).
import { Type as T } from "@sinclair/typebox";
import { drainAudit } from "../../domain/audit/drain";
import { defineTask } from "../define-task";

export const auditDrainTask = defineTask({
  name: "svc.audit_drain",
  payload: T.Object(
    { org_id: T.Optional(T.String({ minLength: 1, maxLength: 100 })) },
    { additionalProperties: false },
  ),
  attempts: 3,
  backoffMs: 1000,
  schedule: {
    id: "audit-drain",
    everyMs: (config) => Math.round(config.AUDIT_DRAIN_INTERVAL_SECONDS * 1000),
  },
  run: async (payload, deps) =>
    drainAudit(deps.db, payload.org_id === undefined ? {} : { orgId: payload.org_id }),
});
