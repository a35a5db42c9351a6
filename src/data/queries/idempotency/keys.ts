// idempotency_keys rows (docs/idempotency.md); tenant transactions only.
import type { Tx } from "../../pools";

export type StoredResponse = { status: number; headers: Record<string, string>; body: string };
export type IdempotencyState = "in_flight" | "done" | "forgotten";
export type IdempotencyRow = {
  fingerprint: string;
  state: IdempotencyState;
  response: StoredResponse | null;
};

/**
 * Deletes up to `limit` of the tenant's expired rows, oldest first, skipping rows another request
 * holds.
 */
export async function deleteExpiredKeys(tx: Tx, orgId: string, limit: number): Promise<number> {
  const rows = await tx`
    DELETE FROM idempotency_keys WHERE (org_id, idem_key) IN (
      SELECT org_id, idem_key FROM idempotency_keys
      WHERE org_id = ${orgId} AND expires_at <= now()
      ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
  return rows.count;
}

/**
 * Claims the key for this request: a new row, or an existing one that expired, or (same fingerprint
 * only) an in-flight claim older than `staleSeconds` whose request presumably died. True when
 * claimed.
 */
export async function claimKey(
  tx: Tx,
  row: {
    orgId: string;
    key: string;
    fingerprint: string;
    token: string;
    ttlSeconds: number;
    staleSeconds: number;
  },
): Promise<boolean> {
  const claimed = await tx`
    INSERT INTO idempotency_keys (org_id, idem_key, fingerprint, state, claim_token, claimed_at, expires_at)
    VALUES (${row.orgId}, ${row.key}, ${row.fingerprint}, 'in_flight', ${row.token}, now(), now() + ${row.ttlSeconds}::int * interval '1 second')
    ON CONFLICT (org_id, idem_key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', claim_token = EXCLUDED.claim_token,
          claimed_at = now(), expires_at = EXCLUDED.expires_at,
          response_status = NULL, response_headers = NULL, response_body = NULL
      WHERE idempotency_keys.expires_at <= now()
         OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
             AND idempotency_keys.claimed_at < now() - ${row.staleSeconds}::int * interval '1 second')
    RETURNING 1`;
  return claimed.length === 1;
}

export async function findKey(tx: Tx, key: string): Promise<IdempotencyRow | null> {
  const rows = await tx<
    {
      fingerprint: string;
      state: IdempotencyState;
      response_status: number | null;
      response_headers: Record<string, string> | null;
      response_body: string | null;
    }[]
  >`
    SELECT fingerprint, state, response_status, response_headers, response_body
    FROM idempotency_keys WHERE idem_key = ${key}`;
  const row = rows[0];
  if (!row) return null;
  const response =
    row.state === "done"
      ? { status: row.response_status!, headers: row.response_headers!, body: row.response_body! }
      : null;
  return { fingerprint: row.fingerprint, state: row.state, response };
}

/**
 * Records the response of the claim holding `token`; false when the claim was taken over meanwhile.
 */
export async function completeKey(
  tx: Tx,
  key: string,
  token: string,
  response: StoredResponse,
): Promise<boolean> {
  const rows = await tx`
    UPDATE idempotency_keys
    SET state = 'done', response_status = ${response.status}, response_headers = ${tx.json(response.headers)}, response_body = ${response.body}
    WHERE idem_key = ${key} AND claim_token = ${token} AND state = 'in_flight'`;
  return rows.count === 1;
}

/** Drops the claim holding `token`, so the client's retry executes afresh. */
export async function releaseKey(tx: Tx, key: string, token: string): Promise<void> {
  await tx`DELETE FROM idempotency_keys WHERE idem_key = ${key} AND claim_token = ${token} AND state = 'in_flight'`;
}

/**
 * Forget reaches stored answers: the tenant's finished answers that name any of these memories (a
 * store's 201 carries the content, a recall's results carry theirs) become tombstones, without the
 * answer but still holding the key. Returns how many did.
 */
export async function tombstoneAnswersNaming(tx: Tx, memoryIds: string[]): Promise<number> {
  if (memoryIds.length === 0) return 0;
  const rows = await tx`
    UPDATE idempotency_keys
    SET state = 'forgotten', response_status = NULL, response_headers = NULL, response_body = NULL
    WHERE state = 'done'
      AND EXISTS (SELECT 1 FROM unnest(${memoryIds}::text[]) AS forgotten(id) WHERE strpos(response_body, forgotten.id) > 0)`;
  return rows.count;
}

/**
 * Erasure reaches stored answers and their keys (a client's key may name the subject): deletes the
 * tenant's finished answers that name any of these memories. Returns how many were deleted.
 */
export async function deleteAnswersNaming(tx: Tx, memoryIds: string[]): Promise<number> {
  if (memoryIds.length === 0) return 0;
  const rows = await tx`
    DELETE FROM idempotency_keys
    WHERE state = 'done'
      AND EXISTS (SELECT 1 FROM unnest(${memoryIds}::text[]) AS erased(id)
                  WHERE strpos(response_body, erased.id) > 0)`;
  return rows.count;
}

/** Makes the finished answer of `key` a tombstone (it names a memory past its expiry). */
export async function tombstoneKey(tx: Tx, key: string): Promise<void> {
  await tx`
    UPDATE idempotency_keys
    SET state = 'forgotten', response_status = NULL, response_headers = NULL, response_body = NULL
    WHERE idem_key = ${key} AND state = 'done'`;
}

/**
 * Whether any of these memories is current but past its expiry (the sweep has not closed it yet).
 */
export async function anyPastExpiry(tx: Tx, memoryIds: string[]): Promise<boolean> {
  if (memoryIds.length === 0) return false;
  const rows = await tx`
    SELECT 1 FROM memories
    WHERE memory_id = ANY(${memoryIds}::text[]) AND valid_to IS NULL AND expires_at <= now()
    LIMIT 1`;
  return rows.length > 0;
}
