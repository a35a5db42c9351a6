// svc.refresh_statistics: planner statistics refreshed on a schedule, or for one group of tables
// after a bulk write (docs/operations.md); a rerun within the interval analyzes nothing, and a kill
// rolls back the refresh marks of its transaction, so the rerun analyzes those tables again.
import { Type as T } from "@sinclair/typebox";
import { refreshAllStatistics } from "../../domain/statistics/refresh-periodically";
import { defineTask } from "../define-task";

export const refreshStatisticsTask = defineTask({
  name: "svc.refresh_statistics",
  payload: T.Object(
    { group: T.Optional(T.Union([T.Literal("memory"), T.Literal("graph")])) },
    { additionalProperties: false },
  ),
  attempts: 3,
  backoffMs: 30_000,
  schedule: { id: "refresh-statistics", everyMs: () => 10 * 60_000 },
  run: async (payload, deps) => ({
    analyzed: await refreshAllStatistics(
      deps.db,
      deps.config.STATISTICS_REFRESH_INTERVAL_SECONDS,
      payload.group,
    ),
  }),
});
