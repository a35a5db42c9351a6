// svc.decay_importance: exponential moving-average decay of unused memories' importance towards a floor.
// Formula and idempotence: see decayCurrentImportance; it is an in-place maintenance change, not a new version.
import type { Database } from "../../data/pools";
import { decayCurrentImportance } from "../../data/queries/memories-maintenance";
import { withTenant } from "../../data/with-tenant";
import { sumOverOrgs } from "./for-each-org";

export type DecayOptions = { halfLifeHours: number; floor: number };

/** Returns how many current memories had their importance moved. */
export function decayImportance(db: Database, now: Date, options: DecayOptions): Promise<number> {
  return sumOverOrgs(db, (orgId) => withTenant(db, orgId, (tx) => decayCurrentImportance(tx, now, options.halfLifeHours, options.floor)));
}
