// The TTL sweep's chunk reads only its own tenant's expired memories (sql/0601, issue 23): another
// tenant's backlog of expired rows is not walked past. The sweep walks every tenant, so this runs
// in a database of its own; the query planned is findExpiredIds'
// (data/queries/memories-maintenance). Each chunk is its own transaction (issue 23).
import type { TransactionSql } from "postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sweepExpiredMemories } from "../../src/domain/memories/sweep-expired";
import { privateTestApp, type TestApp, type Tenant } from "../harness/app";

let t: TestApp;
let small: Tenant;
let large: Tenant;

const inScope = <T>(tenant: Tenant, query: (sql: TransactionSql) => Promise<T>): Promise<T> =>
  t.owner.begin(async (sql) => {
    await sql`SELECT set_config('app.current_org_id', ${tenant.orgId}, true)`;
    return query(sql);
  }) as Promise<T>;

const expire = (tenant: Tenant, count: number) =>
  inScope(
    tenant,
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          created_at, valid_from, expires_at)
    SELECT ${tenant.orgId}, 'mem_' || ${tenant.orgId.slice(-6)} || lpad(g::text, 20, '0'), 1,
           'agent', 'expired note ' || g, sha256(g::text::bytea), 'semantic',
           now() - interval '2 days', now() - interval '2 days',
           now() - interval '1 day' + g * interval '1 second'
    FROM generate_series(1, ${count}) AS g`,
  );

beforeAll(async () => {
  t = await privateTestApp("sweep_per_org");
  small = await t.tenant("sweep-small");
  large = await t.tenant("sweep-large");
  await expire(small, 5);
  await expire(large, 3000);
  await t.owner`ANALYZE memories`;
}, 120_000);

afterAll(() => t.close());

test("a tenant's sweep chunk reads none of another tenant's expired rows", async () => {
  const plan = await inScope(small, async (sql) => {
    await sql`SELECT set_config('role', 'svc_app', true)`;
    return sql<{ "QUERY PLAN": string }[]>`
      EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
      SELECT memory_id FROM memories WHERE valid_to IS NULL AND expires_at <= now()
      ORDER BY expires_at LIMIT 1000`;
  });
  const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
  expect(text).toContain("memories_expiring_per_org");
  expect(text).not.toContain("Rows Removed by Filter");
  expect(text).toContain("rows=5 ");

  expect(await sweepExpiredMemories(t.deps.db, new Date())).toBe(3005);
}, 120_000);

test("the large tenant's backlog went in chunks of 1,000, each its own transaction", async () => {
  // Rows one transaction wrote share its xmin: the forgotten versions, grouped by it.
  const transactions = await inScope(
    large,
    (sql) => sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories WHERE deleted_at IS NOT NULL GROUP BY xmin::text
    ORDER BY n DESC`,
  );
  expect(transactions.map((r) => r.n)).toEqual([1000, 1000, 1000]);
});
