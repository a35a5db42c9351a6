// recordEvent: the single way an effect emits a webhook event. Call it with the transaction that
// performs the effect, so the event commits or rolls back with it (the outbox, docs/webhooks.md).
import { insertWebhookEvent, type WebhookEventType } from "../../data/queries/webhooks/events";
import type { Tx } from "../../data/pools";
import { newId } from "../../lib/ids";

/** A memory version an event names; content is never stored with the event. */
export type EventMemory = { memory_id: string; agent_id: string; version: number };

/**
 * Writes the event and one delivery per live endpoint of `orgId` subscribed to `type`; costs one
 * read of the tenant's endpoints when none is. Returns the event id (Svc-Event-Id), or null.
 */
export async function recordEvent(
  tx: Tx,
  orgId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<string | null> {
  const eventId = newId("evt");
  return (await insertWebhookEvent(tx, orgId, eventId, type, data)) ? eventId : null;
}

/** memory.stored / updated / forgotten: one event per write, naming every version it touched. */
export async function recordMemoryEvent(
  tx: Tx,
  orgId: string,
  type: "memory.stored" | "memory.updated" | "memory.forgotten",
  memories: EventMemory[],
  extra: Record<string, unknown> = {},
): Promise<string | null> {
  if (memories.length === 0) return null;
  const list = memories.map(({ memory_id, agent_id, version }) => ({
    memory_id,
    agent_id,
    version,
  }));
  return recordEvent(tx, orgId, type, { ...extra, memories: list });
}
