// Resolves a presented API key to its tenant: shape and checksum first, then the cache of verified keys
// (key-cache.ts), else one lookup by hash.
import { bytesToHex } from "@noble/hashes/utils.js";
import { findKeyByHash, touchLastUsed } from "../../data/queries/api-keys";
import type { Database } from "../../data/pools";
import { withKeyLookup } from "../../data/with-tenant";
import { unauthenticated } from "../errors";
import { hashKey, hasKeyShape, hasValidChecksum } from "./format";
import type { KeyCache } from "./key-cache";
import { normaliseScopes, type Scope } from "./scopes";

export type KeyIdentity = { orgId: string; keyId: string; keyStart: string; scopes: readonly Scope[] };

/** last_used_at is refreshed at most this often, so the hot path rarely writes. */
const LAST_USED_GRANULARITY_MS = 60_000;

export function createKeyAuthenticator(db: Database, bootstrapKey: string | undefined, cache: KeyCache) {
  const bootstrapHashHex = bootstrapKey ? bytesToHex(hashKey(bootstrapKey)) : null;

  return async function authenticate(presented: string): Promise<KeyIdentity> {
    if (!hasKeyShape(presented)) throw unauthenticated("The API key is malformed; keys look like svc_sk_…");
    const hash = hashKey(presented);
    const hashHex = bytesToHex(hash);
    if (hashHex !== bootstrapHashHex && !hasValidChecksum(presented)) throw unauthenticated("The API key is malformed (checksum mismatch)");

    const cached = cache.get(hashHex);
    if (cached) return cached;
    const epoch = cache.epoch();
    const identity = await withKeyLookup(db, hashHex, async (tx, becomeTenant): Promise<KeyIdentity> => {
      const row = await findKeyByHash(tx, hash);
      if (!row) throw unauthenticated("The API key is not recognised");
      if (row.revoked_at) throw unauthenticated("The API key has been revoked");
      if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_GRANULARITY_MS) {
        await becomeTenant(row.org_id);
        await touchLastUsed(tx, row.key_id);
      }
      return { orgId: row.org_id, keyId: row.key_id, keyStart: row.key_start, scopes: normaliseScopes(row.scopes) };
    });
    cache.put(hashHex, identity, epoch);
    return identity;
  };
}

export type KeyAuthenticator = ReturnType<typeof createKeyAuthenticator>;
