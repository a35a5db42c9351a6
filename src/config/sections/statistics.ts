// Planner statistics the service refreshes itself after bulk writes (sql/0565, issue 23 item 11).
import { Type as T } from "@sinclair/typebox";

export const statisticsSection = {
  STATISTICS_REFRESH_MIN_ROWS: T.Integer({
    default: 500,
    minimum: 1,
    description:
      "A write of at least this many rows (a batch store, an ingest, a distill) queues a refresh " +
      "of the planner statistics (ANALYZE) of the tables it wrote, run by a worker; PGlite and a " +
      "server with autovacuum off never do it themselves",
  }),
  STATISTICS_REFRESH_INTERVAL_SECONDS: T.Integer({
    default: 300,
    minimum: 0,
    description: "Each table is analyzed at most once per this interval, across every process",
  }),
};
