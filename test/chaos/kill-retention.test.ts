// A `svc worker` SIGKILLed in the middle of svc.enforce_retention_caps (issue 23): only whole
// chunks committed, a second worker picks the stalled job up and finishes, and the end state equals
// one run: exactly the cap's best memories kept, every other one forgotten once, each chunk audited
// once.
import type { TransactionSql } from "postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { RETENTION_CHUNK } from "../../src/domain/memories/retention";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { asOwnerOf } from "../harness/as-owner";
import { createMigratedDatabase, dropDatabase } from "../harness/databases";
import { asServingLogin } from "../harness/env";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const N = 24_000; // 24 chunks of forgets, several seconds of work: a wide window for the kill
const CAP = 100;
const prefix = `${TEST_QUEUE_PREFIX}-kretention`;
// A database of its own: the task walks every tenant of its database.
const database = `svc_t_${process.pid}_kretention_${Date.now().toString(36)}`;
let ownerUrl: string;
let t: TestApp;
let tenant: Tenant;

const workers = chaosWorkers(() => ({
  DATABASE_URL: asServingLogin(ownerUrl),
  DATABASE_MIGRATION_URL: ownerUrl,
  SVC_QUEUE_PREFIX: prefix,
  MEMORY_RETENTION_CAP_PER_AGENT: String(CAP),
}));

/** As the owner in the tenant's scope. */
const asOwner = <T>(query: (sql: TransactionSql) => Promise<T>) =>
  asOwnerOf(t.owner, tenant.orgId, query);

const forgottenCount = async () =>
  (
    await asOwner(
      (sql) => sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM memories WHERE deleted_at IS NOT NULL`,
    )
  )[0]!.n;

beforeAll(async () => {
  ownerUrl = await createMigratedDatabase(database);
  t = await testApp({ SVC_QUEUE_PREFIX: prefix }, ownerUrl);
  tenant = await t.tenant("kill-retention");
  await asOwner(
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          importance, created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1, 'agent', 'kept or not ' || g,
           sha256(g::text::bytea), 'semantic', (g % 11) / 11.0,
           now() - (g / 500) * interval '1 hour', now() - (g / 500) * interval '1 hour'
    FROM generate_series(1, ${N}) AS g`,
  );
}, 240_000);

afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
  await dropDatabase(database);
});

test("kill -9 mid-cap, then a second worker: the final state equals one run", async () => {
  const expected = await asOwner(
    (sql) => sql<{ memory_id: string }[]>`
    SELECT memory_id FROM memories WHERE valid_to IS NULL
    ORDER BY importance DESC, valid_from DESC, memory_id DESC LIMIT ${CAP}`,
  );
  const queue = (t.deps.queue as BullmqQueue).queue;
  const first = workers.spawn();
  const job = await queue.add("svc.enforce_retention_caps", {}, { attempts: 3 });
  await eventually(
    async () => (await forgottenCount()) >= RETENTION_CHUNK,
    "the cap to be under way",
    120_000,
  );
  first.kill("SIGKILL");
  await first.exited;
  const afterKill = await forgottenCount();
  expect(afterKill, "the killed worker stopped before finishing").toBeLessThan(N - CAP);

  workers.spawn();
  await eventually(
    async () => (await job.getState()) === "completed",
    "the stalled job to run again and complete",
    180_000,
  );

  const kept = await asOwner(
    (sql) => sql<{ memory_id: string }[]>`
    SELECT memory_id FROM memories WHERE valid_to IS NULL ORDER BY importance DESC,
      valid_from DESC, memory_id DESC`,
  );
  expect(kept.map((r) => r.memory_id)).toEqual(expected.map((r) => r.memory_id));
  // Every other memory forgotten once: one closed version each, named by one audit entry.
  const [once] = await asOwner(
    (sql) => sql<{ versions: number; memories: number; audited: number; named: number }[]>`
    SELECT (SELECT count(*)::int FROM memories WHERE deleted_at IS NOT NULL) AS versions,
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
  expect(once).toEqual({ versions: N - CAP, memories: N - CAP, audited: N - CAP, named: N - CAP });
}, 420_000);
