// svc.refresh_statistics: the periodic ANALYZE of every refreshable table (issue 23, item 11), for
// writes no single bulk write accounts for (many small stores, forgets, sweeps): PGlite has no
// autovacuum and a server may run without it. Throttled per table by sql/0565 like the bulk refresh.
import type { Database } from "../../data/pools";
import { refreshStatisticsAsApp } from "../../data/queries/statistics";
import { withSystem } from "../../data/with-system";
import { GRAPH_TABLES, MEMORY_TABLES } from "./refresh-after-bulk-write";

/** Returns the tables analyzed now; those analyzed within `minIntervalSeconds` are skipped. */
export function refreshAllStatistics(db: Database, minIntervalSeconds: number): Promise<string[]> {
  const tables = [...MEMORY_TABLES, "conversation_turns", ...GRAPH_TABLES];
  return withSystem(db, (tx) => refreshStatisticsAsApp(tx, tables, minIntervalSeconds));
}
