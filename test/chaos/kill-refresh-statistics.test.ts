// svc.refresh_statistics in the kill -9 battery (issue 23, item 11): a `svc worker` SIGKILLed
// while its refresh is held mid-way (at its first ANALYZE, behind a lock the test takes) rolls
// back every refresh mark of its transaction; a second worker re-runs the stalled job, waits for
// the dead one's rows (sql/0610) instead of skipping them as analyzed, and in the end every table
// is marked analyzed and memories' reltuples matches its rows. The end equals one run.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { refreshAllStatistics } from "../../src/domain/statistics/refresh-periodically";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { privateTestApp, TEST_QUEUE_PREFIX, type TestApp } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const ROWS = 2000;
const TABLES = [
  "conversation_turns",
  "edge_lexemes",
  "edge_sources",
  "edges",
  "memo_aliases",
  "memo_keys",
  "memo_sources",
  "memories",
  "memory_code_tokens",
  "memory_terms",
  "memos",
];
const prefix = `${TEST_QUEUE_PREFIX}-killstats`;
let t: TestApp;

const workers = chaosWorkers(() => ({
  DATABASE_URL: t.config.DATABASE_URL!,
  DATABASE_MIGRATION_URL: t.config.DATABASE_MIGRATION_URL!,
  SVC_QUEUE_PREFIX: prefix,
}));

beforeAll(async () => {
  t = await privateTestApp("kill_statistics", { SVC_QUEUE_PREFIX: prefix });
}, 120_000);
afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 60_000);

/** Backends of this database waiting for a lock, other than `except`. */
const waiting = async (except: number[] = []) =>
  (
    await t.owner<{ pid: number }[]>`
      SELECT DISTINCT l.pid FROM pg_locks l JOIN pg_stat_activity a USING (pid)
      WHERE NOT l.granted AND a.datname = current_database()`
  )
    .map((row) => row.pid)
    .filter((pid) => !except.includes(pid));

test("kill -9 mid-refresh, then a second worker: every table analyzed, as by one run", async () => {
  const tenant = await t.tenant("kill-statistics");
  await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at)
    SELECT ${tenant.orgId}, 'mem_stats' || g, 1, 'agent', 'note ' || g, sha256(g::text::bytea), 'semantic', now()
    FROM generate_series(1, ${ROWS}::int) AS g`,
  );
  // Every table has its committed refresh mark, due now: the steady state of a running service.
  await refreshAllStatistics(t.deps.db, 0);
  await t.owner`UPDATE statistics_refreshes SET refreshed_at = '-infinity'`;
  // ANALYZE waits for this lock, so the first worker is surely mid-refresh when it is killed: at
  // its first table, whose refresh mark it holds locked but has not yet written.
  const held = await t.owner.reserve();
  await held`BEGIN`;
  await held`LOCK TABLE conversation_turns, memories IN SHARE UPDATE EXCLUSIVE MODE`;
  const queue = (t.deps.queue as BullmqQueue).queue;
  const job = await queue.add("svc.refresh_statistics", {}, { attempts: 3 });
  const first = workers.spawn();
  const [stuck] = await eventually(
    async () => {
      const pids = await waiting();
      return pids.length > 0 && pids;
    },
    "the first worker's ANALYZE to wait for the lock",
    60_000,
  );
  first.kill("SIGKILL");
  await first.exited;
  workers.spawn();
  // The stalled job runs again: sql/0610 waits for the dead transaction's rows (before, it
  // skipped them and finished at once, leaving those tables to a rollback).
  await eventually(
    async () => (await waiting([stuck!])).length > 0 || (await job.getState()) === "completed",
    "the second worker to take up the stalled job",
    60_000,
  );
  await held`COMMIT`;
  held.release();
  await eventually(
    async () => (await job.getState()) === "completed",
    "the re-run to complete",
    120_000,
  );
  const marks = await t.owner<{ relname: string }[]>`
    SELECT relname FROM statistics_refreshes WHERE refreshed_at > '-infinity' ORDER BY relname`;
  expect(marks.map((m) => m.relname)).toEqual(TABLES);
  const [memories] = await t.owner<{ n: number }[]>`
    SELECT reltuples::int AS n FROM pg_class WHERE oid = 'public.memories'::regclass`;
  expect(memories!.n).toBe(ROWS);
}, 300_000);
