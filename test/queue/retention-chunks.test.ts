// Retention caps in bounded chunks (issue 23): each agent over the cap loses exactly the memories
// ranked after its cap-th (importance, then newest), in transactions of at most `chunk` memories,
// and a rerun forgets nothing more; each chunk's statement (overCapChunk's own, under EXPLAIN)
// reads one chunk of the index, however many memories share a valid_from (sql/0670). The task walks every tenant, so this runs in a database of its
// own.
import type { TransactionSql } from "postgres";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Tx } from "../../src/data/pools";
import { type CapCursor, overCapChunk } from "../../src/data/queries/memories/retention-caps";
import { enforceRetentionCaps } from "../../src/domain/memories/retention";
import { asOwnerOf } from "../harness/as-owner";
import { privateTestApp, type TestApp, type Tenant } from "../harness/app";

const CAP = 40;
const CHUNK = 97;
let t: TestApp;
let tenant: Tenant;

/** As the owner in the tenant's scope (triggers and all). */
const asOwner = <T>(query: (sql: TransactionSql) => Promise<T>): Promise<T> =>
  asOwnerOf(t.owner, tenant.orgId, query);

beforeAll(async () => {
  t = await privateTestApp("retention_chunks");
  tenant = await t.tenant("retention-chunks");
  // 1,500 memories for one agent and 25 for another: importance in 7 steps and valid_from in
  // batches of 50 sharing one instant (as a batch store writes them), so both tie-breaks matter.
  await asOwner(
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          importance, created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1,
           CASE WHEN g <= 1500 THEN 'big' ELSE 'small' END,
           'retention note ' || g, sha256(g::text::bytea), 'semantic',
           (g % 7) / 7.0, now() - (g / 50) * interval '1 hour', now() - (g / 50) * interval '1 hour'
    FROM generate_series(1, 1525) AS g`,
  );
  await t.owner`ANALYZE memories`;
}, 120_000);

afterAll(() => t.close());

const ranked = () =>
  asOwner(
    (sql) => sql<{ memory_id: string }[]>`
    SELECT memory_id FROM (
      SELECT memory_id, row_number() OVER (PARTITION BY agent_id
        ORDER BY importance DESC, valid_from DESC, memory_id DESC) AS rank
      FROM memories WHERE valid_to IS NULL) AS r
    WHERE rank <= ${CAP} ORDER BY memory_id`,
  );

/**
 * overCapChunk's own statement (captured from the function, not copied here), run under EXPLAIN
 * ANALYZE in `sql`.
 */
async function planOfChunk(sql: TransactionSql, cursor: CapCursor): Promise<string> {
  let sent: { strings: TemplateStringsArray; values: unknown[] } | undefined;
  const capture = (strings: TemplateStringsArray, ...values: unknown[]) => {
    sent = { strings, values };
    return Promise.resolve([]);
  };
  const cutoff = { importance: "0.5", valid_from: cursor.valid_from, memory_id: "mem_" };
  await overCapChunk(capture as unknown as Tx, "big", cutoff, cursor, CHUNK);
  const strings = [
    `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sent!.strings[0]}`,
    ...sent!.strings.slice(1),
  ];
  const explained = Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray;
  const plan = await sql<{ "QUERY PLAN": string }[]>(explained, ...(sent!.values as never[]));
  return plan.map((r) => r["QUERY PLAN"]).join("\n");
}

test("a chunk inside a group sharing one valid_from reads one chunk, unsorted", async () => {
  const text = await asOwner(async (sql) => {
    const [at] = await sql<CapCursor[]>`
      SELECT valid_from::text AS valid_from, memory_id FROM memories
      WHERE memory_id = 'mem_' || lpad('525', 26, '0')`;
    await sql`SELECT set_config('role', 'svc_app', true)`;
    return planOfChunk(sql, at!);
  });
  expect(text).toContain("Index Scan using memories_agent_current");
  expect(text).not.toContain("Sort");
  expect(text).not.toContain("Rows Removed by Filter");
  expect(text).toContain(`rows=${CHUNK} `);
}, 120_000);

test("each agent keeps its cap's best, the rest is forgotten in transactions of at most a chunk", async () => {
  const expected = (await ranked()).map((r) => r.memory_id);
  expect(expected.length).toBe(CAP + 25);

  expect(await enforceRetentionCaps(t.deps.db, CAP, CHUNK)).toBe(1500 - CAP);
  const kept = await asOwner(
    (sql) => sql<{ memory_id: string }[]>`
    SELECT memory_id FROM memories WHERE valid_to IS NULL ORDER BY memory_id`,
  );
  expect(kept.map((r) => r.memory_id)).toEqual(expected);

  // One transaction's forgets share its deleted_at: every one stayed within the chunk.
  const transactions = await asOwner(
    (sql) => sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories WHERE deleted_at IS NOT NULL GROUP BY deleted_at`,
  );
  expect(transactions.length).toBeGreaterThanOrEqual(Math.ceil((1500 - CAP) / CHUNK));
  expect(Math.max(...transactions.map((r) => r.n))).toBeLessThanOrEqual(CHUNK);
  const forgottenTwice = await asOwner(
    (sql) => sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories WHERE deleted_at IS NOT NULL
    GROUP BY memory_id HAVING count(*) > 1`,
  );
  expect(forgottenTwice.length).toBe(0);

  // A rerun (a retried job) finds nothing left.
  expect(await enforceRetentionCaps(t.deps.db, CAP, CHUNK)).toBe(0);
}, 120_000);

test("the cut-off ranks importance as a number: 1e-05 goes first, not last", async () => {
  // After the run above every agent is within the cap; 'tiny' has one over: 40 memories at 0.9 and
  // one at 0.00001, which PostgreSQL writes as text "1e-05" (above "0.9" in text order).
  await asOwner(
    (sql) => sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          importance, created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_' || lpad((9000 + g)::text, 26, '0'), 1, 'tiny', 'tiny note ' || g,
           sha256(('tiny' || g)::bytea), 'semantic', CASE WHEN g = 0 THEN 0.00001 ELSE 0.9 END,
           now(), now()
    FROM generate_series(0, ${CAP}) AS g`,
  );
  expect(await enforceRetentionCaps(t.deps.db, CAP, CHUNK)).toBe(1);
  const forgotten = await asOwner(
    (sql) => sql<{ memory_id: string }[]>`
    SELECT memory_id FROM memories WHERE agent_id = 'tiny' AND deleted_at IS NOT NULL`,
  );
  expect(forgotten.map((r) => r.memory_id)).toEqual([`mem_${"9000".padStart(26, "0")}`]);
}, 120_000);
