// svc.refresh_statistics: the ANALYZE of the refreshable tables (issue 23, item 11), run only by a
// worker: periodically for every table, for writes no single bulk write accounts for (many small
// stores, forgets, sweeps), and for one group after a bulk write. PGlite has no autovacuum and a
// server may run without it. Throttled per table across processes by sql/0565 and sql/0610.
import type { Database } from "../../data/pools";
import { refreshStatisticsAsApp } from "../../data/queries/statistics/statistics";
import { withSystem } from "../../data/with-system";
import { GRAPH_TABLES, MEMORY_TABLES, STATISTICS_GROUPS } from "./refresh-after-bulk-write";
import type { StatisticsGroup } from "./refresh-after-bulk-write";

const ALL_TABLES = [...MEMORY_TABLES, "conversation_turns", ...GRAPH_TABLES];

/** Returns the tables analyzed now; those analyzed within `minIntervalSeconds` are skipped. */
export function refreshAllStatistics(
  db: Database,
  minIntervalSeconds: number,
  group?: StatisticsGroup,
): Promise<string[]> {
  const tables = group === undefined ? ALL_TABLES : STATISTICS_GROUPS[group];
  return withSystem(db, (tx) => refreshStatisticsAsApp(tx, tables, minIntervalSeconds));
}
