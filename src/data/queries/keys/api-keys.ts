// api_keys rows. Lookups by hash run under withKeyLookup; everything else under withTenant.
import type { Scope } from "../../../lib/scopes";
import type { Tx } from "../../pools";

export type ApiKeyKind = "standard" | "bootstrap" | "development";

export type ApiKeyRow = {
  key_id: string;
  org_id: string;
  name: string;
  key_start: string;
  kind: ApiKeyKind;
  /** sql/0005 keeps these within the known set. */
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

const COLUMNS = [
  "key_id",
  "org_id",
  "name",
  "key_start",
  "kind",
  "scopes",
  "created_at",
  "last_used_at",
  "revoked_at",
] as const;

export async function findKeyByHash(tx: Tx, keyHash: Uint8Array): Promise<ApiKeyRow | null> {
  const rows = await tx<
    ApiKeyRow[]
  >`SELECT ${tx(COLUMNS)} FROM api_keys WHERE key_hash = ${keyHash}`;
  return rows[0] ?? null;
}

export async function insertKey(
  tx: Tx,
  key: {
    key_id: string;
    org_id: string;
    name: string;
    key_hash: Uint8Array;
    key_start: string;
    kind: ApiKeyKind;
    scopes: readonly string[];
  },
): Promise<ApiKeyRow> {
  const rows = await tx<
    ApiKeyRow[]
  >`INSERT INTO api_keys ${tx({ ...key, scopes: [...key.scopes] })} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}

/**
 * Serialises key creation within the tenant for the rest of the transaction, so two concurrent
 * creates cannot both pass the cap check; then counts the tenant's live keys.
 */
export async function lockAndCountLiveKeys(tx: Tx): Promise<number> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended('api-keys/' || svc_current_org(), 0))`;
  const rows = await tx<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM api_keys WHERE revoked_at IS NULL`;
  return rows[0]!.n;
}

/** Keys of the tenant, newest first; keyset pagination on (created_at, key_id). */
export async function listKeys(
  tx: Tx,
  limit: number,
  after?: { created_at: Date; key_id: string },
): Promise<ApiKeyRow[]> {
  return tx<ApiKeyRow[]>`
    SELECT ${tx(COLUMNS)} FROM api_keys
    WHERE ${after ? tx`(created_at, key_id) < (${after.created_at}, ${after.key_id})` : tx`true`}
    ORDER BY created_at DESC, key_id DESC LIMIT ${limit}`;
}

/** Revokes once; a second call returns the row with its original revoked_at. */
export async function revokeKey(tx: Tx, keyId: string): Promise<ApiKeyRow | null> {
  const rows = await tx<ApiKeyRow[]>`
    UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE key_id = ${keyId} RETURNING ${tx(COLUMNS)}`;
  return rows[0] ?? null;
}

export async function touchLastUsed(tx: Tx, keyId: string): Promise<void> {
  await tx`UPDATE api_keys SET last_used_at = now() WHERE key_id = ${keyId}`;
}

export async function hasLiveKeyOfKind(tx: Tx, kind: ApiKeyKind): Promise<boolean> {
  const rows = await tx`SELECT 1 FROM api_keys WHERE kind = ${kind} AND revoked_at IS NULL LIMIT 1`;
  return rows.length > 0;
}
