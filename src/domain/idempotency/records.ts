// Idempotency-Key records per tenant (docs/idempotency.md): claim before the work, then complete
// with the response (replayed to every later request with the same key and fingerprint) or release
// (5xx, 429).
import { randomUUID } from "node:crypto";
import type { Ports } from "../ports/ports";
import {
  anyPastExpiry,
  claimKey,
  completeKey,
  deleteExpiredKeys,
  findKey,
  releaseKey,
  tombstoneKey,
  type StoredResponse,
} from "../../data/queries/idempotency/keys";
import { withTenant } from "../../data/with-tenant";
import {
  idempotencyKeyForgotten,
  idempotencyKeyInFlight,
  idempotencyKeyReused,
} from "../../lib/errors";
import { idsIn } from "../../lib/ids";

export type { StoredResponse };
export type Claim = { orgId: string; key: string; token: string };
export type ClaimOutcome =
  | { kind: "claimed"; claim: Claim }
  | { kind: "replay"; response: StoredResponse };

/**
 * Expired rows each claim deletes for its tenant: more than the one row a claim adds, so the table
 * stays bounded.
 */
const SWEEP_PER_CLAIM = 8;

const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

type IdempotencyDeps = Pick<Ports, "db" | "config">;

/**
 * Claims `key` for a request with `fingerprint`, or returns the stored response to replay. Throws
 * 422 idempotency-key-reused for another fingerprint, 409 idempotency-key-in-flight (with
 * Retry-After) while the first request still runs, and 410 idempotency-key-forgotten for a
 * tombstone.
 */
export async function claimIdempotencyKey(
  deps: IdempotencyDeps,
  orgId: string,
  key: string,
  fingerprint: string,
): Promise<ClaimOutcome> {
  const {
    IDEMPOTENCY_KEY_TTL_SECONDS: ttlSeconds,
    IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: staleSeconds,
  } = deps.config;
  const token = randomUUID();
  const outcome = await withTenant(deps.db, orgId, async (tx) => {
    await deleteExpiredKeys(tx, orgId, SWEEP_PER_CLAIM);
    if (await claimKey(tx, { orgId, key, fingerprint, token, ttlSeconds, staleSeconds }))
      return { kind: "claimed" as const };
    const row = await findKey(tx, key);
    // A replay is re-checked against expiry: an answer naming a memory past it is a tombstone
    // already.
    if (row?.state === "done" && (await anyPastExpiry(tx, idsIn("mem", row.response!.body)))) {
      await tombstoneKey(tx, key);
      return {
        kind: "existing" as const,
        row: { ...row, state: "forgotten" as const, response: null },
      };
    }
    return { kind: "existing" as const, row };
  });
  if (outcome.kind === "claimed") return { kind: "claimed", claim: { orgId, key, token } };
  const row = outcome.row;
  // The row vanished between the conflict and the read (released by a 5xx): the client retries.
  if (!row) throw idempotencyKeyInFlight(IN_FLIGHT_RETRY_AFTER_SECONDS);
  if (row.fingerprint !== fingerprint) throw idempotencyKeyReused();
  if (row.state === "done") return { kind: "replay", response: row.response! };
  if (row.state === "forgotten") throw idempotencyKeyForgotten();
  // Most requests finish within a second; a claim whose request died is taken over after
  // staleSeconds.
  throw idempotencyKeyInFlight(IN_FLIGHT_RETRY_AFTER_SECONDS);
}

/** Stores the response of a claimed request; false when its claim went stale and was taken over. */
export function completeIdempotencyKey(
  deps: IdempotencyDeps,
  claim: Claim,
  response: StoredResponse,
): Promise<boolean> {
  return withTenant(deps.db, claim.orgId, (tx) =>
    completeKey(tx, claim.key, claim.token, response),
  );
}

/** Forgets a claim whose request failed in a way the client should retry (5xx, 429). */
export function releaseIdempotencyKey(deps: IdempotencyDeps, claim: Claim): Promise<void> {
  return withTenant(deps.db, claim.orgId, (tx) => releaseKey(tx, claim.key, claim.token));
}
