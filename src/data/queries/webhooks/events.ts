// The webhook outbox: an event and its deliveries, written in the transaction of the effect.
import type { Tx } from "../../pools";

export const WEBHOOK_EVENT_TYPES = [
  "memory.stored",
  "memory.updated",
  "memory.forgotten",
  "subject.erased",
  "job.succeeded",
  "job.failed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Inserts the event and one delivery per live endpoint of the tenant subscribed to `type`, in one
 * statement: with no subscribed endpoint it only reads the tenant's endpoint rows and writes
 * nothing.
 * False when nobody subscribed.
 */
export async function insertWebhookEvent(
  tx: Tx,
  orgId: string,
  eventId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<boolean> {
  const rows = await tx<{ event_id: string }[]>`
    WITH subscribed AS (
      SELECT endpoint_id FROM webhook_endpoints
      WHERE org_id = ${orgId} AND deleted_at IS NULL AND ${type} = ANY (events)
    ), event AS (
      INSERT INTO webhook_events (org_id, event_id, type, data)
      SELECT ${orgId}, ${eventId}, ${type}, ${tx.json(data as never)}
      WHERE EXISTS (SELECT 1 FROM subscribed)
      RETURNING event_id
    )
    INSERT INTO webhook_deliveries (org_id, endpoint_id, event_id)
    SELECT ${orgId}, subscribed.endpoint_id, event.event_id FROM subscribed, event
    RETURNING event_id`;
  return rows.length > 0;
}
