// The embedding backfill walks an index led by the tenant (sql/0660, issue 23): a batch of memories
// without a vector is read from memories_unembedded_walk after the last batch's memory_id, never by
// reading and sorting the whole tenant, and a delivery embeds every one of them once, a batch per
// transaction. The queries planned are findStaleEmbeddings' (data/queries/memories-maintenance).
import type { TransactionSql } from "postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { advanceEmbeddings } from "../../src/domain/memories/reembed";
import { privateTestApp, type TestApp, type Tenant } from "../harness/app";

const ROWS = 3_000;
const BATCH = 256;
let t: TestApp;
let tenant: Tenant;

const asApp = <T>(query: (sql: TransactionSql) => Promise<T>): Promise<T> =>
  t.owner.begin(async (sql) => {
    await sql`SELECT set_config('app.current_org_id', ${tenant.orgId}, true)`;
    await sql`SELECT set_config('role', 'svc_app', true)`;
    return query(sql);
  }) as Promise<T>;

const plan = (query: (sql: TransactionSql) => Promise<{ "QUERY PLAN": string }[]>) =>
  asApp(query).then((rows) => rows.map((r) => r["QUERY PLAN"]).join("\n"));

beforeAll(async () => {
  t = await privateTestApp("backfill_walk");
  tenant = await t.tenant("backfill-walk");
  // As the owner (triggers and all): memories stored while the provider was down.
  await t.owner.begin(async (sql) => {
    await sql`SELECT set_config('app.current_org_id', ${tenant.orgId}, true)`;
    await sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1, 'agent', 'unembedded note ' || g,
           sha256(g::text::bytea), 'semantic', now() - g * interval '1 second',
           now() - g * interval '1 second'
    FROM generate_series(1, ${ROWS}) AS g`;
  });
  await t.owner`ANALYZE memories`;
}, 120_000);

afterAll(() => t.close());

test("a batch without vectors is a range of the tenant's index after the last one, not a sort", async () => {
  const after = "mem_" + "1000".padStart(26, "0");
  const text = await plan(
    (sql) => sql`
      EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
      SELECT memory_id, version, content FROM memories
      WHERE org_id = ${tenant.orgId} AND valid_to IS NULL AND embedding IS NULL
        AND memory_id > ${after}
      ORDER BY org_id, memory_id LIMIT ${BATCH}`,
  );
  expect(text).toContain("memories_unembedded_walk");
  expect(text).not.toContain("Sort");
  expect(text).not.toContain("Rows Removed by Filter");
  expect(text).toContain(`rows=${BATCH} `);

  // Vectors of another generation: index ranges around the serving (model, dims), no tenant scan.
  const other = await plan(
    (sql) => sql`
      EXPLAIN (COSTS OFF)
      SELECT memory_id, version, content FROM memories
      WHERE org_id = ${tenant.orgId} AND valid_to IS NULL AND embedding IS NOT NULL
        AND (embedding_model, embedding_dims) < ('m'::text, 8::int)
      LIMIT ${BATCH}`,
  );
  expect(other).toContain("Index Cond: ((org_id = ");
  expect(other).toContain("ROW(embedding_model, embedding_dims) < ROW(");
  expect(other).toContain("memories_vector_generation");
  expect(other).not.toContain("Seq Scan");
});

test("one delivery embeds every memory once, a batch per transaction", async () => {
  const deps = { db: t.deps.db, embeddings: t.deps.embeddings, log: t.deps.log };
  const step = await advanceEmbeddings(deps, tenant.orgId, BATCH, 40);
  expect(step.embedded).toBe(ROWS);
  expect(step.remaining).toBe(0);
  // Rows one transaction wrote share its xmin.
  const transactions = await asApp(
    (sql) => sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories WHERE valid_to IS NULL AND embedding IS NOT NULL
    GROUP BY xmin::text`,
  );
  expect(transactions.length).toBe(Math.ceil(ROWS / BATCH));
  expect(Math.max(...transactions.map((r) => r.n))).toBeLessThanOrEqual(BATCH);
  expect((await advanceEmbeddings(deps, tenant.orgId, BATCH, 40)).embedded).toBe(0);
}, 120_000);
