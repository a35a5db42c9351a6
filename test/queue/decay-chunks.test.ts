// Importance decay in bounded chunks (issue 23): every current memory of the tenant is decayed once,
// in transactions of at most `chunk` memories (rows one transaction wrote share its xmin), so no
// statement touches the whole tenant however large it is; a rerun at the same instant moves
// nothing. Counted by transaction ids, not by a clock: a statement timeout lowered below one
// whole-tenant UPDATE showed the same, but failed on a busy machine. Decay walks every tenant, so
// this runs in a database of its own.
import type { TransactionSql } from "postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { decayImportance } from "../../src/domain/memories/decay-importance";
import { asOwnerOf } from "../harness/as-owner";
import { privateTestApp, type TestApp, type Tenant } from "../harness/app";

const ROWS = 1_500;
const CHUNK = 97;
let t: TestApp;
let tenant: Tenant;

/** As the owner in the tenant's scope (triggers and all). */
const asOwner = <T>(query: (sql: TransactionSql) => Promise<T>): Promise<T> =>
  asOwnerOf(t.owner, tenant.orgId, query);

beforeAll(async () => {
  t = await privateTestApp("decay_chunks");
  tenant = await t.tenant("decay-chunks");
  // Two agents, untouched for 60 days, all above the floor: one insert, so one xmin before decay.
  await asOwner(
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          importance, created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1,
           CASE WHEN g % 3 = 0 THEN 'small' ELSE 'big' END, 'decay note ' || g,
           sha256(g::text::bytea), 'semantic', 0.9, now() - interval '60 days',
           now() - interval '60 days'
    FROM generate_series(1, ${ROWS}) AS g`,
  );
}, 120_000);

afterAll(() => t.close());

test("decay moves every memory once, in transactions of at most a chunk", async () => {
  const options = { halfLifeHours: 24, floor: 0.2 };
  const now = new Date();
  expect(await decayImportance(t.deps.db, now, options, CHUNK)).toBe(ROWS);

  const transactions = await asOwner(
    (sql) => sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories WHERE importance_decayed_at IS NOT NULL
    GROUP BY xmin::text`,
  );
  expect(transactions.reduce((sum, r) => sum + r.n, 0)).toBe(ROWS);
  expect(transactions.length).toBe(Math.ceil(ROWS / CHUNK));
  expect(Math.max(...transactions.map((r) => r.n))).toBeLessThanOrEqual(CHUNK);

  // 60 days at a one-day half-life: at the floor, within rounding.
  const [high] = await asOwner(
    (sql) => sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories WHERE importance > 0.21 OR importance < 0.2`,
  );
  expect(high!.n).toBe(0);
  // A rerun (a retried job) at the same instant moves nothing.
  expect(await decayImportance(t.deps.db, now, options, CHUNK)).toBe(0);
}, 120_000);
