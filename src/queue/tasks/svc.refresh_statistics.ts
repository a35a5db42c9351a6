// svc.refresh_statistics: planner statistics refreshed on a schedule (docs/operations.md); a rerun
// within the interval analyzes nothing, and a kill leaves at most one ANALYZE undone.
import { Type as T } from "@sinclair/typebox";
import { refreshAllStatistics } from "../../domain/statistics/refresh-periodically";
import { defineTask } from "../define-task";

export const refreshStatisticsTask = defineTask({
  name: "svc.refresh_statistics",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 30_000,
  schedule: { id: "refresh-statistics", everyMs: () => 10 * 60_000 },
  run: async (_payload, deps) => ({
    analyzed: await refreshAllStatistics(deps.db, deps.config.STATISTICS_REFRESH_INTERVAL_SECONDS),
  }),
});
