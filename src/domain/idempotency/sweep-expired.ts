// Deletes every tenant's expired Idempotency-Key rows (and the responses they hold), run by the
// minute-by-minute expiry sweep (svc.sweep_expired_memories), so a key is kept at most its TTL plus
// a minute even for a tenant that stopped sending keyed requests. Claims also delete a few lazily.
import { deleteExpiredKeys } from "../../data/queries/idempotency/keys";
import type { Database } from "../../data/pools";
import { withTenant } from "../../data/with-tenant";
import { sumOverOrgs } from "../memories/for-each-org";

const CHUNK = 1000;

/** Returns how many rows were deleted; a rerun finds nothing left to do. */
export function sweepExpiredIdempotencyKeys(db: Database): Promise<number> {
  return sumOverOrgs(db, async (orgId) => {
    let total = 0;
    for (;;) {
      const deleted = await withTenant(db, orgId, (tx) => deleteExpiredKeys(tx, orgId, CHUNK));
      total += deleted;
      if (deleted < CHUNK) return total;
    }
  });
}
