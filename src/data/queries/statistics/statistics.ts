// Planner statistics: the throttled ANALYZE of sql/0565 (svc_refresh_statistics), owner's rights.
import type { Tx } from "../../pools";
import { APP_ROLE } from "../../with-tenant";

/** ANALYZEs those of `tables` not analyzed in the last `minIntervalSeconds`; returns those. */
async function refreshStatistics(
  tx: Tx,
  tables: readonly string[],
  minIntervalSeconds: number,
): Promise<string[]> {
  const [row] = await tx<{ analyzed: string[] }[]>`
    SELECT svc_refresh_statistics(${tables as string[]}::text[], ${minIntervalSeconds}::int)
      AS analyzed`;
  return row?.analyzed ?? [];
}

/** The same outside a tenant (the periodic refresh): as the app role, which holds the EXECUTE. */
export async function refreshStatisticsAsApp(
  tx: Tx,
  tables: readonly string[],
  minIntervalSeconds: number,
): Promise<string[]> {
  await tx`SELECT set_config('role', ${APP_ROLE}, true)`;
  return refreshStatistics(tx, tables, minIntervalSeconds);
}
