// Delivering one tenant's due webhooks: claim under a lease, build and sign each body, POST, settle
// (delivered, retried with exponential backoff and jitter, or dead after WEBHOOKS_MAX_ATTEMPTS).
import type { Ports } from "../ports/ports";
import {
  claimDueDeliveries,
  memoryVersionContents,
  nextDeliveryDueAt,
  settleDelivery,
  type ClaimedDelivery,
} from "../../data/queries/webhooks/deliveries";
import type { Tx } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { EventMemory } from "./record-event";
import { sendWebhook } from "./send";
import { signatureHeader } from "./signature";

/**
 * Deliveries claimed (and sent concurrently) per round, and rounds per run, so one run is bounded.
 */
const CLAIM_BATCH = 16;
const MAX_ROUNDS = 32;

export type DeliveryRun = {
  delivered: number;
  retried: number;
  dead: number;
  next_due_at: Date | null;
};

type WebhookDeps = Pick<Ports, "db" | "config" | "webhookPolicy">;

export async function deliverDueWebhooks(deps: WebhookDeps, orgId: string): Promise<DeliveryRun> {
  const run: DeliveryRun = { delivered: 0, retried: 0, dead: 0, next_due_at: null };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await withTenant(deps.db, orgId, async (tx) => {
      const rows = await claimDueDeliveries(tx, CLAIM_BATCH, deps.config.WEBHOOKS_LEASE_SECONDS);
      return Promise.all(rows.map(async (row) => ({ row, body: await bodyOf(tx, row) })));
    });
    if (claimed.length === 0) break;
    await Promise.all(
      claimed.map(async ({ row, body }) => {
        const outcome = await attempt(deps, row, body);
        const retryAt =
          outcome.ok || row.attempts >= deps.config.WEBHOOKS_MAX_ATTEMPTS
            ? null
            : new Date(Date.now() + retryDelayMs(deps.config, row.attempts));
        const settled = await withTenant(deps.db, orgId, (tx) =>
          settleDelivery(tx, row.event_id, row.endpoint_id, {
            delivered: outcome.ok,
            status: outcome.status,
            retryAt,
            error: outcome.ok ? null : outcome.error,
          }),
        );
        if (!settled) return;
        if (outcome.ok) run.delivered++;
        else if (retryAt) run.retried++;
        else run.dead++;
      }),
    );
  }
  run.next_due_at = await withTenantRead(deps.db, orgId, nextDeliveryDueAt);
  return run;
}

/**
 * base · 2^(attempt-1), capped, then scaled by a random factor in [0.5, 1) so retries spread out.
 */
export function retryDelayMs(config: WebhookDeps["config"], attemptsMade: number): number {
  const exponential = config.WEBHOOKS_RETRY_BASE_MS * 2 ** Math.max(0, attemptsMade - 1);
  const capped = Math.min(config.WEBHOOKS_RETRY_MAX_MS, exponential);
  return Math.round(capped * (0.5 + Math.random() / 2));
}

/**
 * The JSON body: the event as recorded, plus memory content only for an include_content endpoint.
 */
async function bodyOf(tx: Tx, row: ClaimedDelivery): Promise<string> {
  let data = row.data;
  const memories = data.memories as EventMemory[] | undefined;
  if (row.include_content && Array.isArray(memories)) {
    const contents = await memoryVersionContents(tx, memories);
    const withContent = memories.map((m) => ({
      ...m,
      content: contents.get(`${m.memory_id}@${m.version}`) ?? null,
    }));
    data = { ...data, memories: withContent };
  }
  const createdAt = row.event_created_at.toISOString();
  return JSON.stringify({ id: row.event_id, type: row.type, created_at: createdAt, data });
}

function attempt(deps: WebhookDeps, row: ClaimedDelivery, body: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  const previousValid =
    row.previous_secret !== null &&
    row.previous_secret_until !== null &&
    row.previous_secret_until.getTime() > Date.now();
  const secrets = previousValid ? [row.secret, row.previous_secret!] : [row.secret];
  const headers = {
    "svc-event-id": row.event_id,
    "svc-event-type": row.type,
    "svc-timestamp": String(timestamp),
    "svc-signature": signatureHeader(secrets, timestamp, body),
    "svc-delivery-attempt": String(row.attempts),
  };
  return sendWebhook(row.url, headers, body, deps.webhookPolicy, deps.config.WEBHOOKS_TIMEOUT_MS);
}
