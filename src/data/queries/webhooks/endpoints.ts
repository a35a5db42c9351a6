// webhook_endpoints rows: a tenant's delivery targets and their signing secrets; tenant
// transactions only.
import type { Tx } from "../../pools";

export type WebhookEndpointRow = {
  endpoint_id: string;
  url: string;
  events: string[];
  include_content: boolean;
  description: string | null;
  created_at: Date;
  secret_rotated_at: Date | null;
  previous_secret_until: Date | null;
  deleted_at: Date | null;
};

const COLUMNS = [
  "endpoint_id",
  "url",
  "events",
  "include_content",
  "description",
  "created_at",
  "secret_rotated_at",
  "previous_secret_until",
  "deleted_at",
] as const;

export type NewWebhookEndpoint = {
  org_id: string;
  endpoint_id: string;
  url: string;
  events: string[];
  include_content: boolean;
  description: string | null;
  secret: string;
};

export async function insertWebhookEndpoint(
  tx: Tx,
  row: NewWebhookEndpoint,
): Promise<WebhookEndpointRow> {
  const rows = await tx<WebhookEndpointRow[]>`
    INSERT INTO webhook_endpoints ${tx(row)} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}

/** Live endpoints of the tenant (a cap on how many one tenant may have). */
export async function countLiveWebhookEndpoints(tx: Tx): Promise<number> {
  const [row] = await tx<{ n: number }[]>`
    SELECT count(*)::int AS n FROM webhook_endpoints WHERE deleted_at IS NULL`;
  return row!.n;
}

/** A live endpoint, locked when `forUpdate` (delete and rotate serialise on it). */
export async function findWebhookEndpoint(
  tx: Tx,
  endpointId: string,
  forUpdate = false,
): Promise<WebhookEndpointRow | null> {
  const rows = await tx<WebhookEndpointRow[]>`
    SELECT ${tx(COLUMNS)} FROM webhook_endpoints
    WHERE endpoint_id = ${endpointId} AND deleted_at IS NULL ${forUpdate ? tx`FOR UPDATE` : tx``}`;
  return rows[0] ?? null;
}

/** Oldest first; the cursor is the last endpoint seen. */
export async function listWebhookEndpoints(
  tx: Tx,
  limit: number,
  afterEndpointId: string | undefined,
): Promise<WebhookEndpointRow[]> {
  return tx<WebhookEndpointRow[]>`
    SELECT ${tx(COLUMNS)} FROM webhook_endpoints
    WHERE deleted_at IS NULL
      ${
        afterEndpointId
          ? tx`AND (created_at, endpoint_id) > (
        SELECT created_at, endpoint_id FROM webhook_endpoints WHERE endpoint_id = ${afterEndpointId})`
          : tx``
      }
    ORDER BY created_at, endpoint_id LIMIT ${limit}`;
}

/** Soft-deletes the endpoint; its pending deliveries become dead so no worker calls it again. */
export async function deleteWebhookEndpoint(
  tx: Tx,
  endpointId: string,
): Promise<{ row: WebhookEndpointRow; abandoned: number }> {
  const abandoned = await tx`
    UPDATE webhook_deliveries SET state = 'dead', last_error = 'endpoint deleted', finished_at = now()
    WHERE endpoint_id = ${endpointId} AND state = 'pending' RETURNING 1`;
  const rows = await tx<WebhookEndpointRow[]>`
    UPDATE webhook_endpoints SET deleted_at = now() WHERE endpoint_id = ${endpointId}
    RETURNING ${tx(COLUMNS)}`;
  return { row: rows[0]!, abandoned: abandoned.length };
}

/** The new secret signs from now on; the old one keeps signing alongside until `previousUntil`. */
export async function rotateWebhookSecret(
  tx: Tx,
  endpointId: string,
  secret: string,
  previousUntil: Date,
): Promise<WebhookEndpointRow> {
  const rows = await tx<WebhookEndpointRow[]>`
    UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ${previousUntil},
      secret = ${secret}, secret_rotated_at = now()
    WHERE endpoint_id = ${endpointId} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}
