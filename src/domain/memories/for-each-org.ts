// Background memory tasks visit tenants one at a time: list orgs (system), then work inside
// withTenant.
import type { Database } from "../../data/pools";
import { listOrgIds } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";

export async function sumOverOrgs(
  db: Database,
  work: (orgId: string) => Promise<number>,
): Promise<number> {
  const orgIds = await withSystem(db, listOrgIds);
  let total = 0;
  for (const orgId of orgIds) total += await work(orgId);
  return total;
}
