// webhook_deliveries rows: claimed by the worker under a lease, settled after each attempt, listed
// per endpoint; tenant transactions only.
import type { Tx } from "../../pools";

export type ClaimedDelivery = {
  event_id: string;
  endpoint_id: string;
  attempts: number;
  type: string;
  data: Record<string, unknown>;
  event_created_at: Date;
  url: string;
  include_content: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
};

/**
 * Claims up to `limit` due deliveries: each attempt is counted now and the row is pushed one lease
 * ahead, so a worker that dies before settling leaves it due again after the lease (a duplicate
 * send under the same event id, never a lost one). SKIP LOCKED lets workers share the backlog.
 */
export async function claimDueDeliveries(
  tx: Tx,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery[]> {
  return tx<ClaimedDelivery[]>`
    WITH due AS (
      SELECT event_id, endpoint_id FROM webhook_deliveries
      WHERE state = 'pending' AND next_attempt_at <= now()
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d
      SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
      FROM due WHERE d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id
      RETURNING d.org_id, d.event_id, d.endpoint_id, d.attempts
    )
    SELECT c.event_id, c.endpoint_id, c.attempts, e.type, e.data, e.created_at AS event_created_at,
      p.url, p.include_content, p.secret, p.previous_secret, p.previous_secret_until
    FROM claimed c
    JOIN webhook_events e ON e.org_id = c.org_id AND e.event_id = c.event_id
    JOIN webhook_endpoints p ON p.org_id = c.org_id AND p.endpoint_id = c.endpoint_id`;
}

/**
 * Records an attempt's outcome on a still-pending row: delivered, retried at `retryAt`, or dead
 * when `retryAt` is null. False when the row was no longer pending (its endpoint was deleted
 * meanwhile).
 */
export async function settleDelivery(
  tx: Tx,
  eventId: string,
  endpointId: string,
  outcome: {
    delivered: boolean;
    status: number | null;
    error: string | null;
    retryAt: Date | null;
  },
): Promise<boolean> {
  const state = outcome.delivered ? "delivered" : outcome.retryAt === null ? "dead" : "pending";
  const rows = await tx`
    UPDATE webhook_deliveries SET state = ${state}, last_status = ${outcome.status},
      last_error = ${outcome.error}, next_attempt_at = coalesce(${outcome.retryAt}, next_attempt_at),
      finished_at = ${state === "pending" ? null : tx`now()`}
    WHERE event_id = ${eventId} AND endpoint_id = ${endpointId} AND state = 'pending'
    RETURNING 1`;
  return rows.length === 1;
}

/** When the next pending delivery of the tenant falls due, or null. */
export async function nextDeliveryDueAt(tx: Tx): Promise<Date | null> {
  const [row] = await tx<{ at: Date | null }[]>`
    SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE state = 'pending'`;
  return row?.at ?? null;
}

export type DeliveryState = "pending" | "delivered" | "dead";

export type DeliveryLogRow = {
  event_id: string;
  type: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

/**
 * Newest first; the cursor is the last event seen (its own microsecond created_at is looked up).
 */
export async function listDeliveries(
  tx: Tx,
  endpointId: string,
  limit: number,
  beforeEventId: string | undefined,
): Promise<DeliveryLogRow[]> {
  return tx<DeliveryLogRow[]>`
    SELECT d.event_id, e.type, d.state, d.attempts, d.next_attempt_at, d.last_status, d.last_error,
      d.created_at, d.finished_at
    FROM webhook_deliveries d JOIN webhook_events e ON e.org_id = d.org_id AND e.event_id = d.event_id
    WHERE d.endpoint_id = ${endpointId}
      ${
        beforeEventId
          ? tx`AND (d.created_at, d.event_id) < (SELECT created_at, event_id
        FROM webhook_deliveries WHERE endpoint_id = ${endpointId} AND event_id = ${beforeEventId})`
          : tx``
      }
    ORDER BY d.created_at DESC, d.event_id DESC LIMIT ${limit}`;
}

/** Content of the named memory versions, for endpoints that asked for it (include_content). */
export async function memoryVersionContents(
  tx: Tx,
  versions: Array<{ memory_id: string; version: number }>,
): Promise<Map<string, string>> {
  if (versions.length === 0) return new Map();
  const rows = await tx<{ memory_id: string; version: number; content: string }[]>`
    SELECT m.memory_id, m.version, m.content FROM memories m
    JOIN unnest(${versions.map((v) => v.memory_id)}::text[], ${versions.map((v) => v.version)}::int[])
      AS wanted (memory_id, version) ON m.memory_id = wanted.memory_id AND m.version = wanted.version`;
  return new Map(rows.map((r) => [`${r.memory_id}@${r.version}`, r.content]));
}
