// svc.sweep_expired_memories: forget every current memory whose expires_at has passed (reason
// "ttl").
import type { Database } from "../../data/pools";
import { findExpiredIds } from "../../data/queries/memories/maintenance";
import { withTenant } from "../../data/with-tenant";
import { systemActor } from "../actor";
import { sumOverOrgs } from "./for-each-org";
import { forgetMemories } from "./forget";

const CHUNK = 1000;

/** Returns how many memories were forgotten; a rerun finds nothing left to do. */
export function sweepExpiredMemories(db: Database, now: Date): Promise<number> {
  return sumOverOrgs(db, async (orgId) => {
    let total = 0;
    for (;;) {
      const forgotten = await withTenant(db, orgId, async (tx) => {
        const ids = await findExpiredIds(tx, now, CHUNK);
        return ids.length === 0
          ? 0
          : (await forgetMemories(tx, systemActor(orgId), ids, "ttl")).forgotten.length;
      });
      total += forgotten;
      if (forgotten < CHUNK) return total;
    }
  });
}
