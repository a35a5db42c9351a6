// A `svc worker` SIGKILLed in the middle of importance decay, then of the TTL sweep (issue 23): only
// whole chunks committed, a second worker picks the stalled job up and finishes, and the end state
// equals one run: every memory decayed once in place (no new version, the composed formula's value),
// every expired memory forgotten once and audited once.
import type { TransactionSql } from "postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DECAY_CHUNK } from "../../src/domain/memories/decay-importance";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { asOwnerOf } from "../harness/as-owner";
import { createMigratedDatabase, dropDatabase } from "../harness/databases";
import { asServingLogin } from "../harness/env";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const DECAYING = 40_000; // 8 chunks: a wide window for the kill
const EXPIRED = 12_000; // 12 chunks of 1,000 forgets
const HALF_LIFE_HOURS = 30 * 24; // 60 days unused: two half-lives, far from the floor
const FLOOR = 0.2;
const prefix = `${TEST_QUEUE_PREFIX}-kperiodic`;
// A database of its own: both tasks walk every tenant of their database.
const database = `svc_t_${process.pid}_kperiodic_${Date.now().toString(36)}`;
let ownerUrl: string;
let t: TestApp;
let tenant: Tenant;

const workers = chaosWorkers(() => ({
  DATABASE_URL: asServingLogin(ownerUrl),
  DATABASE_MIGRATION_URL: ownerUrl,
  SVC_QUEUE_PREFIX: prefix,
  MEMORY_DECAY_HALF_LIFE_HOURS: String(HALF_LIFE_HOURS),
  MEMORY_DECAY_FLOOR: String(FLOOR),
}));

/** As the owner in the tenant's scope. */
const asOwner = <T>(query: (sql: TransactionSql) => Promise<T>) =>
  asOwnerOf(t.owner, tenant.orgId, query);

const count = async (where: string) =>
  (
    await asOwner(
      (sql) =>
        sql<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE ${sql.unsafe(where)}`,
    )
  )[0]!.n;

/** Runs `task` on a worker, kills it once `started` holds, and lets a second worker finish it. */
async function killMidway(task: string, started: () => Promise<boolean>): Promise<void> {
  const queue = (t.deps.queue as BullmqQueue).queue;
  const first = workers.spawn();
  const job = await queue.add(task, {}, { attempts: 3 });
  await eventually(started, `${task} to be under way`, 120_000);
  first.kill("SIGKILL");
  await first.exited;
  const second = workers.spawn();
  await eventually(
    async () => (await job.getState()) === "completed",
    `the stalled ${task} to run again and complete`,
    180_000,
  );
  second.kill("SIGKILL");
  await second.exited;
}

beforeAll(async () => {
  ownerUrl = await createMigratedDatabase(database);
  t = await testApp({ SVC_QUEUE_PREFIX: prefix }, ownerUrl);
  tenant = await t.tenant("kill-periodic");
  await asOwner(
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          importance, created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1, 'agent', 'decaying ' || g,
           sha256(g::text::bytea), 'semantic', 0.9, now() - interval '60 days',
           now() - interval '60 days'
    FROM generate_series(1, ${DECAYING}) AS g`,
  );
  await t.owner`ANALYZE memories`;
}, 240_000);

afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
  await dropDatabase(database);
});

test("kill -9 mid-decay, then a second worker: every memory decayed once, in place", async () => {
  let atKill = 0;
  await killMidway("svc.decay_importance", async () => {
    atKill = await count("importance_decayed_at IS NOT NULL");
    return atKill >= DECAY_CHUNK;
  });
  expect(atKill, "the killed worker stopped before finishing").toBeLessThan(DECAYING);
  const [state] = await asOwner(
    (sql) => sql<{ versions: number; decayed: number; low: number; high: number }[]>`
    SELECT count(*)::int AS versions,
           count(*) FILTER (WHERE importance_decayed_at IS NOT NULL)::int AS decayed,
           min(importance)::float8 AS low, max(importance)::float8 AS high
    FROM memories`,
  );
  // 0.2 + 0.7 · 0.5² = 0.375; the retry adds only the seconds between the two runs.
  expect(state!.versions).toBe(DECAYING);
  expect(state!.decayed).toBe(DECAYING);
  expect(state!.low).toBeCloseTo(0.375, 3);
  expect(state!.high).toBeCloseTo(0.375, 3);
}, 420_000);

test("kill -9 mid-sweep, then a second worker: every expired memory forgotten and audited once", async () => {
  await asOwner(
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          created_at, valid_from, expires_at)
    SELECT ${tenant.orgId}, 'mem_Z' || lpad(g::text, 25, '0'), 1, 'agent', 'expired ' || g,
           sha256(('x' || g)::bytea), 'semantic', now() - interval '2 days',
           now() - interval '2 days', now() - interval '1 day' + g * interval '1 millisecond'
    FROM generate_series(1, ${EXPIRED}) AS g`,
  );
  await t.owner`ANALYZE memories`;
  let atKill = 0;
  await killMidway("svc.sweep_expired_memories", async () => {
    atKill = await count("deleted_at IS NOT NULL");
    return atKill >= 1000;
  });
  expect(atKill, "the killed worker stopped before finishing").toBeLessThan(EXPIRED);
  const [once] = await asOwner(
    (sql) => sql<
      { current: number; versions: number; memories: number; audited: number; named: number }[]
    >`
    SELECT (SELECT count(*)::int FROM memories WHERE valid_to IS NULL AND expires_at IS NOT NULL)
             AS current,
           (SELECT count(*)::int FROM memories WHERE deleted_at IS NOT NULL) AS versions,
           (SELECT count(DISTINCT memory_id)::int FROM memories WHERE deleted_at IS NOT NULL)
             AS memories,
           (SELECT count(*)::int FROM (
              SELECT unnest(target_ids) FROM audit_pending WHERE operation = 'forget'
              UNION ALL
              SELECT unnest(target_ids) FROM audit_log WHERE operation = 'forget') AS a)
             AS audited,
           (SELECT count(DISTINCT id)::int FROM (
              SELECT unnest(target_ids) AS id FROM audit_pending WHERE operation = 'forget'
              UNION ALL
              SELECT unnest(target_ids) FROM audit_log WHERE operation = 'forget') AS a) AS named`,
  );
  expect(once).toEqual({
    current: 0,
    versions: EXPIRED,
    memories: EXPIRED,
    audited: EXPIRED,
    named: EXPIRED,
  });
}, 420_000);
