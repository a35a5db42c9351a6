// Creating, listing and revoking a tenant's keys.
import { insertKey, listKeys, revokeKey, type ApiKeyKind, type ApiKeyRow } from "../../data/queries/api-keys";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { notFound } from "../errors";
import { newId } from "../ids";
import { decodeCursor, encodeCursor } from "../cursor";
import { hashKey, keyStart, mintKey } from "./format";

export type PublicKey = Omit<ApiKeyRow, "org_id">;
const publicKey = ({ org_id: _org, ...rest }: ApiKeyRow): PublicKey => rest;

export async function createKey(db: Database, actor: Actor, name: string, kind: ApiKeyKind = "standard", plaintext?: string) {
  const minted = plaintext ? { plaintext, hash: hashKey(plaintext), start: keyStart(plaintext) } : mintKey();
  const row = await withTenant(db, actor.orgId, async (tx) => {
    const inserted = await insertKey(tx, { key_id: newId("key"), org_id: actor.orgId, name, key_hash: minted.hash, key_start: minted.start, kind });
    await recordAudit(tx, actor, { operation: "api_key.create", targetIds: [inserted.key_id], detail: { name, kind } });
    return inserted;
  });
  return { ...publicKey(row), key: minted.plaintext };
}

export async function listTenantKeys(db: Database, actor: Actor, limit: number, cursor?: string) {
  const after = cursor ? decodeCursor(cursor, (v) => ({ created_at: new Date(String(v[0])), key_id: String(v[1]) })) : undefined;
  const rows = await withTenantRead(db, actor.orgId, (tx) => listKeys(tx, limit + 1, after));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(publicKey),
    next_cursor: rows.length > limit && last ? encodeCursor([last.created_at.toISOString(), last.key_id]) : null,
  };
}

export async function revokeTenantKey(db: Database, actor: Actor, keyId: string) {
  const row = await withTenant(db, actor.orgId, async (tx) => {
    const revoked = await revokeKey(tx, keyId);
    if (revoked) await recordAudit(tx, actor, { operation: "api_key.revoke", targetIds: [keyId] });
    return revoked;
  });
  if (!row) throw notFound("API key");
  return publicKey(row);
}
