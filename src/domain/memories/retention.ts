// svc.enforce_retention_caps: keep at most `capPerAgent` current memories per agent, forgetting the
// lowest-importance, then oldest, through the one forget path (reason "retention").
import type { Database } from "../../data/pools";
import { findOverCapIds } from "../../data/queries/memories-maintenance";
import { withTenant } from "../../data/with-tenant";
import { systemActor } from "../actor";
import { sumOverOrgs } from "./for-each-org";
import { forgetMemories } from "./forget";

const CHUNK = 1000;

export function enforceRetentionCaps(db: Database, capPerAgent: number): Promise<number> {
  return sumOverOrgs(db, async (orgId) => {
    let total = 0;
    for (;;) {
      const forgotten = await withTenant(db, orgId, async (tx) => {
        const ids = await findOverCapIds(tx, capPerAgent, CHUNK);
        return ids.length === 0
          ? 0
          : (await forgetMemories(tx, systemActor(orgId), ids, "retention")).forgotten.length;
      });
      total += forgotten;
      if (forgotten < CHUNK) return total;
    }
  });
}
