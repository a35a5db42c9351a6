// svc.deliver_webhooks: sends the due webhook deliveries of one tenant (org_id) or of every tenant
// (the beat's safety net). Idempotent: rows are claimed under a lease, so a redelivered or parallel
// run sends nothing twice except what a killed run had claimed (resent under the same event id).
import { Type as T } from "@sinclair/typebox";
import { listOrgIds } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";
import { deliverDueWebhooks } from "../../domain/webhooks/deliver";
import { defineTask } from "../define-task";

export const deliverWebhooksTask = defineTask({
  name: "svc.deliver_webhooks",
  payload: T.Object(
    {
      org_id: T.Optional(T.String({ minLength: 1, maxLength: 100 })),
    },
    { additionalProperties: false },
  ),
  attempts: 3,
  backoffMs: 1000,
  schedule: { id: "deliver-webhooks", everyMs: (config) => config.WEBHOOKS_SWEEP_SECONDS * 1000 },
  run: async (payload, deps) => {
    const orgIds = payload.org_id ? [payload.org_id] : await withSystem(deps.db, listOrgIds);
    const totals = { delivered: 0, retried: 0, dead: 0 };
    for (const orgId of orgIds) {
      const run = await deliverDueWebhooks(deps, orgId);
      totals.delivered += run.delivered;
      totals.retried += run.retried;
      totals.dead += run.dead;
      // A retry due before the next sweep gets its own wake-up, so short backoffs are honoured.
      const wait = run.next_due_at ? run.next_due_at.getTime() - Date.now() : null;
      if (wait !== null && wait < deps.config.WEBHOOKS_SWEEP_SECONDS * 1000) {
        await deps.queue.enqueue(
          "svc.deliver_webhooks",
          { org_id: orgId },
          {
            jobId: `webhooks-${orgId}-at-${run.next_due_at!.getTime()}`,
            delayMs: Math.max(0, wait),
          },
        );
      }
    }
    return totals;
  },
});
