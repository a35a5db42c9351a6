// Planner statistics stay fresh without a manual ANALYZE (issue 23, item 11), in both database
// modes (the serving login cannot ANALYZE, PGlite has no autovacuum, the test server runs with
// autovacuum off): a bulk store answers without analyzing anything and queues one refresh of the
// memory tables (a second store while it is pending adds none); a worker then leaves
// pg_class.reltuples matching the rows, and a table is analyzed at most once per interval.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Sql } from "../../src/data/pools";
import { refreshAllStatistics } from "../../src/domain/statistics/refresh-periodically";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker } from "../../src/queue/worker";
import { privateTestApp, show, TEST_QUEUE_PREFIX, type Tenant, type TestApp } from "../harness/app";
import { embeddedApp } from "../harness/embedded-app";
import { eventually } from "../queue/wait";

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
      const prefix = `${TEST_QUEUE_PREFIX}-stats`;
      const app = await privateTestApp("statistics_refresh", {
        ...overrides,
        SVC_QUEUE_PREFIX: prefix,
      });
      const close = async () => {
        await (app.deps.queue as BullmqQueue).queue.obliterate({ force: true });
        await app.close();
      };
      return { app, tenant: await app.tenant("stats"), close };
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
    const queueIdle = async () => {
      const counts = await (
        opened.app.deps.queue as unknown as { counts(): Promise<Counts> }
      ).counts();
      return counts.waiting + counts.active + counts.delayed === 0;
    };
    type Counts = Record<"waiting" | "active" | "delayed", number>;

    test("a bulk store analyzes nothing itself; the one queued refresh does, once per interval", async () => {
      const sql = opened.app.deps.db.primary;
      await storeBatch(0);
      await storeBatch(BATCH);
      expect(await reltuples(sql, "memories")).not.toBe(BATCH); // no ANALYZE on the request's path
      const queue = opened.app.deps.queue;
      if (queue instanceof BullmqQueue) {
        const pending = (await queue.queue.getJobs(["waiting"])).filter(
          (job) => job.name === "svc.refresh_statistics",
        );
        expect(pending.map((job) => [job.id, job.data])).toEqual([
          ["refresh-statistics-memory", { group: "memory" }],
        ]);
      }
      const worker = await startWorker(opened.app.deps);
      try {
        await eventually(
          async () => (await reltuples(sql, "memories")) === 2 * BATCH,
          "the queued refresh to analyze memories",
          60_000,
        );
        await eventually(queueIdle, "the queue to empty", 60_000);
        await storeBatch(2 * BATCH);
        await eventually(queueIdle, "the third store's refresh to run", 60_000);
        expect(await reltuples(sql, "memories")).toBe(2 * BATCH); // within the interval
      } finally {
        await worker.close();
      }
    }, 180_000);

    test("the periodic refresh analyzes what bulk writes left stale, once per interval", async () => {
      const db = opened.app.deps.db;
      expect(await reltuples(db.primary, "memories")).toBe(2 * BATCH);
      expect(await refreshAllStatistics(db, 0, "graph")).not.toContain("memories");
      expect(await refreshAllStatistics(db, 0)).toContain("memories");
      expect(await reltuples(db.primary, "memories")).toBe(3 * BATCH);
      expect(await refreshAllStatistics(db, 3600)).toEqual([]);
    }, 120_000);
  });
}
