// svc.decay_importance: exponential moving-average decay of unused memories' importance towards a
// floor. Formula and idempotence: see decayImportanceChunk; an in-place maintenance change, not a
// new version. Keyset chunks in memory_id order, each its own transaction: a retry after a crash
// walks again from the start, and chunks already decayed move only by the time since (the formula
// composes).
import type { Database } from "../../data/pools";
import { decayImportanceChunk } from "../../data/queries/memories/maintenance";
import { withTenant } from "../../data/with-tenant";
import { sumOverOrgs } from "./for-each-org";

export type DecayOptions = { halfLifeHours: number; floor: number };

/**
 * Memories per statement: each chunk is its own short transaction, far below the statement timeout.
 */
export const DECAY_CHUNK = 5000;

/** Returns how many current memories had their importance moved. */
export function decayImportance(
  db: Database,
  now: Date,
  options: DecayOptions,
  chunk = DECAY_CHUNK,
): Promise<number> {
  return sumOverOrgs(db, async (orgId) => {
    let total = 0;
    for (let after: string | null = ""; after !== null; ) {
      const from: string = after;
      const step = await withTenant(db, orgId, (tx) =>
        decayImportanceChunk(tx, orgId, from, chunk, now, options.halfLifeHours, options.floor),
      );
      total += step.decayed;
      after = step.lastId;
    }
    return total;
  });
}
