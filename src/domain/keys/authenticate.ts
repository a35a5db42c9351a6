// Resolves a presented API key to its tenant: the cache of verified keys (key-cache.ts) first, else
// shape and checksum, then one lookup by hash.
import { bytesToHex } from "@noble/hashes/utils.js";
import { findKeyByHash, touchLastUsed } from "../../data/queries/keys/api-keys";
import type { Database } from "../../data/pools";
import { withKeyLookup } from "../../data/with-tenant";
import { unauthenticated } from "../../lib/errors";
import { hashKey, hasKeyShape, hasValidChecksum } from "./format";
import type { KeyIdentity } from "./identity";
import type { KeyCache } from "./key-cache";
import { normaliseScopes } from "../../lib/scopes";

/** last_used_at is refreshed at most this often, so the hot path rarely writes. */
const LAST_USED_GRANULARITY_MS = 60_000;

export function createKeyAuthenticator(
  db: Database,
  bootstrapKey: string | undefined,
  cache: KeyCache,
) {
  const bootstrapHashHex = bootstrapKey ? bytesToHex(hashKey(bootstrapKey)) : null;

  /**
   * `beforeLookup` runs for every key the cache does not vouch for, before any other check: the
   * pre-authentication throttle (address-throttle.ts) refuses there.
   */
  return async function authenticate(
    presented: string,
    beforeLookup?: () => Promise<void>,
  ): Promise<KeyIdentity> {
    const wellShaped = hasKeyShape(presented);
    const hash = wellShaped ? hashKey(presented) : null;
    const hashHex = hash ? bytesToHex(hash) : "";
    const cached = hash ? cache.get(hashHex) : null;
    if (cached) return cached;
    await beforeLookup?.();
    if (!hash) throw unauthenticated("The API key is malformed; keys look like svc_sk_…");
    if (hashHex !== bootstrapHashHex && !hasValidChecksum(presented))
      throw unauthenticated("The API key is malformed (checksum mismatch)");
    const epoch = cache.epoch();
    const identity = await withKeyLookup(
      db,
      hashHex,
      async (tx, becomeTenant): Promise<KeyIdentity> => {
        const row = await findKeyByHash(tx, hash);
        if (!row) throw unauthenticated("The API key is not recognised");
        if (row.revoked_at) throw unauthenticated("The API key has been revoked");
        if (
          !row.last_used_at ||
          Date.now() - row.last_used_at.getTime() > LAST_USED_GRANULARITY_MS
        ) {
          await becomeTenant(row.org_id);
          await touchLastUsed(tx, row.key_id);
        }
        return {
          orgId: row.org_id,
          keyId: row.key_id,
          keyStart: row.key_start,
          scopes: normaliseScopes(row.scopes),
        };
      },
    );
    cache.put(hashHex, identity, epoch);
    return identity;
  };
}

export type KeyAuthenticator = ReturnType<typeof createKeyAuthenticator>;
