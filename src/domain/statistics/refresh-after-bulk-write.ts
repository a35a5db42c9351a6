// Fresh planner statistics after a bulk write (issue 23, item 11), off the request's path: the
// serving login cannot ANALYZE and PGlite has no autovacuum, so a bulk load left the planner seeing
// empty tables (graph recall and graph/data timed out until someone ran ANALYZE). The write queues
// svc.refresh_statistics for the tables it wrote and returns; a worker runs the ANALYZE, so no
// request waits on it. Statistics belong to a table, not a tenant: one pending job per group.
import type { Ports } from "../ports/ports";

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

export const STATISTICS_GROUPS = { memory: MEMORY_TABLES, graph: GRAPH_TABLES } as const;
export type StatisticsGroup = keyof typeof STATISTICS_GROUPS;

/** A second request while the group's job is pending is the same work, so it is dropped. */
export const statisticsJobId = (group: StatisticsGroup) => `refresh-statistics-${group}`;

type ScheduleDeps = Pick<Ports, "queue" | "config" | "log">;

/** Queues an ANALYZE of `group`'s tables when `changedRows` is many; never the caller's failure. */
export async function scheduleStatisticsRefresh(
  deps: ScheduleDeps,
  orgId: string,
  group: StatisticsGroup,
  changedRows: number,
): Promise<void> {
  if (changedRows < deps.config.STATISTICS_REFRESH_MIN_ROWS) return;
  try {
    const jobId = statisticsJobId(group);
    await deps.queue.enqueue("svc.refresh_statistics", { group }, { jobId });
  } catch (error) {
    // The rows are committed; the periodic refresh (10 min) analyzes them instead.
    deps.log.warn({ msg: "could not queue a statistics refresh", org_id: orgId, err: error });
  }
}
