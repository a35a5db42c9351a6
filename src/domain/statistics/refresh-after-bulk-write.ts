// Fresh planner statistics after a bulk write (issue 23, item 11): the serving login cannot ANALYZE
// and PGlite has no autovacuum, so a bulk load left the planner seeing empty tables (graph recall
// and graph/data timed out until someone ran ANALYZE). The database throttles per table across
// processes; a failure here is logged, never the caller's failure, since its rows are committed.
import type { Ports } from "../ports/ports";
import { refreshStatistics } from "../../data/queries/statistics";
import { withTenant } from "../../data/with-tenant";

/** What a memory store writes (the row, its lexical postings and code tokens). */
export const MEMORY_TABLES = ["memories", "memory_terms", "memory_code_tokens"] as const;

/** What a distill writes: the graph recall and graph/data plan over. */
export const GRAPH_TABLES = [
  "memos",
  "memo_keys",
  "memo_aliases",
  "memo_sources",
  "edges",
  "edge_sources",
  "edge_lexemes",
] as const;

type StatisticsDeps = Pick<Ports, "db" | "config" | "log">;

/** ANALYZEs `tables` when `changedRows` is many and they were not analyzed in the last interval. */
export async function refreshStatisticsAfter(
  deps: StatisticsDeps,
  orgId: string,
  tables: readonly string[],
  changedRows: number,
): Promise<void> {
  if (changedRows < deps.config.STATISTICS_REFRESH_MIN_ROWS) return;
  const interval = deps.config.STATISTICS_REFRESH_INTERVAL_SECONDS;
  try {
    const analyzed = await withTenant(deps.db, orgId, (tx) =>
      refreshStatistics(tx, tables, interval),
    );
    if (analyzed.length > 0)
      deps.log.info({ msg: "statistics refreshed", org_id: orgId, tables: analyzed });
  } catch (error) {
    deps.log.warn({ msg: "statistics refresh failed", org_id: orgId, err: error });
  }
}
