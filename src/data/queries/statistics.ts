// Planner statistics: the throttled ANALYZE of sql/0565 (svc_refresh_statistics), owner's rights.
import type { Tx } from "../pools";

/** ANALYZEs those of `tables` not analyzed in the last `minIntervalSeconds`; returns those. */
export async function refreshStatistics(
  tx: Tx,
  tables: readonly string[],
  minIntervalSeconds: number,
): Promise<string[]> {
  const [row] = await tx<{ analyzed: string[] }[]>`
    SELECT svc_refresh_statistics(${tables as string[]}::text[], ${minIntervalSeconds}::int)
      AS analyzed`;
  return row?.analyzed ?? [];
}
