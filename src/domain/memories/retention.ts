// svc.enforce_retention_caps: keep at most `capPerAgent` current memories per agent, forgetting the
// lowest-importance, then oldest, through the one forget path (reason "retention").
// Bounded at any size (issue 23): per agent over the cap, its cut-off is found once, then its
// memories are walked newest first in keyset chunks, each chunk found and forgotten in its own
// transaction. A rerun (a retry after a crash) finds the same cut-off and only what is left.
import type { Database } from "../../data/pools";
import {
  agentsOverCap,
  CAP_WALK_START,
  capCutoff,
  overCapChunk,
  type CapCursor,
} from "../../data/queries/memories/retention-caps";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import { systemActor } from "../actor";
import { sumOverOrgs } from "./for-each-org";
import { forgetMemories } from "./forget";

/** Memories read (and at most forgotten) per transaction. */
export const RETENTION_CHUNK = 1000;

export function enforceRetentionCaps(
  db: Database,
  capPerAgent: number,
  chunk = RETENTION_CHUNK,
): Promise<number> {
  return sumOverOrgs(db, async (orgId) => {
    const agents = await withTenantRead(db, orgId, (tx) => agentsOverCap(tx, capPerAgent));
    let total = 0;
    for (const agentId of agents) total += await capAgent(db, orgId, agentId, capPerAgent, chunk);
    return total;
  });
}

async function capAgent(
  db: Database,
  orgId: string,
  agentId: string,
  cap: number,
  chunk: number,
): Promise<number> {
  const cutoff = await withTenantRead(db, orgId, (tx) => capCutoff(tx, agentId, cap));
  if (!cutoff) return 0;
  let total = 0;
  for (let cursor: CapCursor | null = CAP_WALK_START; cursor; ) {
    const from: CapCursor = cursor;
    const step = await withTenant(db, orgId, async (tx) => {
      const found = await overCapChunk(tx, agentId, cutoff, from, chunk);
      if (found.ids.length === 0) return { forgotten: 0, next: found.next };
      const result = await forgetMemories(tx, systemActor(orgId), found.ids, "retention", {
        agentId,
      });
      return { forgotten: result.forgotten.length, next: found.next };
    });
    total += step.forgotten;
    cursor = step.next;
  }
  return total;
}
