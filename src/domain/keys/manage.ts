// Creating, listing and revoking a tenant's keys.
import {
  insertKey,
  listKeys,
  lockAndCountLiveKeys,
  revokeKey,
  type ApiKeyKind,
  type ApiKeyRow,
} from "../../data/queries/keys/api-keys";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { insufficientScope, keyLimitReached, notFound } from "../../lib/errors";
import { looksLikeId, newId } from "../../lib/ids";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { hashKey, keyStart, mintKey } from "./format";
import type { KeyCache } from "./key-cache";
import { FULL_ACCESS, normaliseScopes, scopesMissing, type Scope } from "../../lib/scopes";

export type PublicKey = Omit<ApiKeyRow, "org_id">;
const publicKey = ({ org_id: _org, ...rest }: ApiKeyRow): PublicKey => rest;

type NewKey = {
  name: string;
  kind: ApiKeyKind;
  scopes: readonly Scope[];
  plaintext?: string;
  maxActive?: number;
};

async function insertNewKey(db: Database, actor: Actor, key: NewKey) {
  const minted = key.plaintext
    ? { plaintext: key.plaintext, hash: hashKey(key.plaintext), start: keyStart(key.plaintext) }
    : mintKey();
  const { name, kind, scopes } = key;
  const row = await withTenant(db, actor.orgId, async (tx) => {
    if (key.maxActive !== undefined && (await lockAndCountLiveKeys(tx)) >= key.maxActive)
      throw keyLimitReached(key.maxActive);
    const inserted = await insertKey(tx, {
      key_id: newId("key"),
      org_id: actor.orgId,
      name,
      key_hash: minted.hash,
      key_start: minted.start,
      kind,
      scopes,
    });
    await recordAudit(tx, actor, {
      operation: "api_key.create",
      targetIds: [inserted.key_id],
      detail: { name, kind, scopes },
    });
    return inserted;
  });
  return { ...publicKey(row), key: minted.plaintext };
}

/**
 * Operator keys (boot, development, CLI): full access unless `scopes` narrows it (svc keys create
 * --scopes), outside the per-tenant cap.
 */
export function createKey(
  db: Database,
  actor: Actor,
  name: string,
  kind: ApiKeyKind = "standard",
  plaintext?: string,
  scopes: readonly Scope[] = FULL_ACCESS,
) {
  return insertNewKey(db, actor, { name, kind, scopes: normaliseScopes(scopes), plaintext });
}

/**
 * A key minted by a tenant key: it may hold only scopes the caller holds (by default exactly the
 * caller's), and the tenant may hold at most `maxActive` live keys.
 */
export function createTenantKey(
  db: Database,
  actor: Actor,
  callerScopes: readonly Scope[],
  input: { name: string; scopes?: readonly Scope[] },
  maxActive: number,
) {
  const scopes = normaliseScopes(input.scopes ?? callerScopes);
  const missing = scopesMissing(callerScopes, scopes);
  if (missing.length > 0)
    throw insufficientScope(
      `A key can only grant scopes it holds; this key lacks ${missing.join(", ")}`,
      missing,
    );
  return insertNewKey(db, actor, { name: input.name, kind: "standard", scopes, maxActive });
}

export async function listTenantKeys(db: Database, actor: Actor, limit: number, cursor?: string) {
  const after = cursor
    ? decodeCursor(cursor, (v) => ({ created_at: new Date(String(v[0])), key_id: String(v[1]) }))
    : undefined;
  const rows = await withTenantRead(db, actor.orgId, (tx) => listKeys(tx, limit + 1, after));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(publicKey),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor([last.created_at.toISOString(), last.key_id])
        : null,
  };
}

/**
 * Revokes, then forgets the key in this process's cache at once (other processes hear the NOTIFY).
 */
export async function revokeTenantKey(
  deps: { db: Database; keyCache: KeyCache },
  actor: Actor,
  keyId: string,
) {
  if (!looksLikeId("key", keyId)) throw notFound("API key");
  const row = await withTenant(deps.db, actor.orgId, async (tx) => {
    const revoked = await revokeKey(tx, keyId);
    if (revoked) await recordAudit(tx, actor, { operation: "api_key.revoke", targetIds: [keyId] });
    return revoked;
  });
  deps.keyCache.forget(keyId);
  if (!row) throw notFound("API key");
  return publicKey(row);
}
