// An export reads each table once (issue 23, item 4): GET /v1/export of 8,000 memories fetches
// about twice the rows (the progress count, then the cursor), where LIMIT … OFFSET paging read
// every earlier page again for each page of 1,000 (80,000 rows here, quadratic in the size).
// Counted by PostgreSQL's own statistics of the table, on a database of this test's own; no clock.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { privateTestApp, type TestApp } from "../harness/app";
import { eventually } from "../queue/wait";

const ROWS = 8000;
let t: TestApp;

beforeAll(async () => {
  t = await privateTestApp("export_linear");
}, 120_000);
afterAll(() => t.close());

/** Rows of memories read so far by every backend, as flushed to the cumulative statistics. */
const rowsRead = async () => {
  const [row] = await t.owner<{ n: number }[]>`
    SELECT (seq_tup_read + coalesce(idx_tup_fetch, 0))::int AS n
    FROM pg_stat_user_tables WHERE relname = 'memories'`;
  return row!.n;
};

test("an export reads each memory about twice, not once per earlier page", async () => {
  const tenant = await t.tenant("linear");
  // 1,000 rows a statement: one statement of 8,000 (postings triggers and all) can outlast the
  // statement timeout on a loaded machine.
  for (let from = 1; from <= ROWS; from += 1000)
    await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) => tx`
      INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at)
      SELECT ${tenant.orgId}, 'mem_bulk' || lpad(g::text, 6, '0'), 1, 'bulk',
        'Bulk memory ' || g || ' ' || repeat('for the export ', 30), sha256(g::text::bytea), 'semantic', now()
      FROM generate_series(${from}::int, ${from + 999}::int) AS g`,
    );
  const before = await rowsRead();
  const response = await t.handle(
    new Request("http://localhost/v1/export", {
      headers: { authorization: `Bearer ${tenant.key}` },
    }),
  );
  expect(response.status).toBe(200);
  const lines = (await response.text()).trim().split("\n");
  expect(lines.filter((l) => l.startsWith('{"k":"memory"')).length).toBe(ROWS);
  // The export's one transaction reaches the statistics in one flush, once its backend is idle.
  const read = await eventually(
    async () => {
      const n = (await rowsRead()) - before;
      return n >= ROWS && n;
    },
    "the export's reads to reach pg_stat_user_tables",
    60_000,
  );
  expect(read).toBeLessThanOrEqual(3 * ROWS);
}, 180_000);
