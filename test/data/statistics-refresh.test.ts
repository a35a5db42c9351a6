// Planner statistics stay fresh without a manual ANALYZE (issue 23, item 11): a bulk load through
// the API leaves pg_class.reltuples matching the rows, in both database modes (the serving login
// cannot ANALYZE, PGlite has no autovacuum, and the test server runs with autovacuum off), and a
// table is analyzed at most once per interval, however many bulk writes follow.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Sql } from "../../src/data/pools";
import { refreshAllStatistics } from "../../src/domain/statistics/refresh-periodically";
import { privateTestApp, show, type Tenant, type TestApp } from "../harness/app";
import { embeddedApp } from "../harness/embedded-app";

const BATCH = 300;
const overrides = { STATISTICS_REFRESH_MIN_ROWS: 200, STATISTICS_REFRESH_INTERVAL_SECONDS: 3600 };

type Mode = {
  name: string;
  open(): Promise<{ app: TestApp; tenant: Tenant; close(): Promise<void> }>;
};
const modes: Mode[] = [
  {
    name: "PostgreSQL",
    async open() {
      const app = await privateTestApp("statistics_refresh", overrides);
      return { app, tenant: await app.tenant("stats"), close: () => app.close() };
    },
  },
  {
    name: "PGlite (embedded)",
    async open() {
      const e = await embeddedApp("statistics-refresh", overrides);
      return { app: e.app, tenant: await e.tenant("stats"), close: () => e.close() };
    },
  },
];

const reltuples = async (sql: Sql, table: string) => {
  const [row] = await sql<{ n: number }[]>`
    SELECT reltuples::int AS n FROM pg_class WHERE oid = ${`public.${table}`}::regclass`;
  return row!.n;
};

for (const mode of modes) {
  describe(`statistics refresh (${mode.name})`, () => {
    let opened: Awaited<ReturnType<Mode["open"]>>;
    beforeAll(async () => {
      opened = await mode.open();
    }, 120_000);
    afterAll(() => opened.close());

    const storeBatch = async (from: number) => {
      const memories = Array.from({ length: BATCH }, (_, i) => ({
        agent_id: "loader",
        content: `bulk note number ${from + i} about statistics`,
      }));
      const res = await opened.app.request("POST", "/v1/memories/batch", {
        key: opened.tenant.key,
        body: { memories },
      });
      expect(res.status, show(res)).toBe(201);
    };

    const title =
      "a bulk store freshens memories' reltuples; the next within the interval does not";
    test(title, async () => {
      const sql = opened.app.deps.db.primary;
      await storeBatch(0);
      expect(await reltuples(sql, "memories")).toBe(BATCH);
      await storeBatch(BATCH);
      expect(await reltuples(sql, "memories")).toBe(BATCH);
    }, 120_000);

    test("the periodic refresh analyzes what bulk writes left stale, once per interval", async () => {
      const db = opened.app.deps.db;
      expect(await reltuples(db.primary, "memories")).toBe(BATCH);
      expect(await refreshAllStatistics(db, 0)).toContain("memories");
      expect(await reltuples(db.primary, "memories")).toBe(2 * BATCH);
      expect(await refreshAllStatistics(db, 3600)).toEqual([]);
    }, 120_000);
  });
}
