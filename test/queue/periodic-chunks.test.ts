// Periodic tasks work in bounded chunks (issue 23, item 12): with the statement timeout lowered far
// below what one statement over the whole tenant needs, importance decay still finishes, because
// each chunk is its own short statement and transaction. The single UPDATE it replaces failed here.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { decayImportance } from "../../src/domain/memories/decay-importance";
import { privateTestApp, type TestApp, type Tenant } from "../harness/app";

const ROWS = 20_000;
let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await privateTestApp("periodic_chunks", { DATABASE_STATEMENT_TIMEOUT_MS: 400 });
  tenant = await t.tenant("periodic");
  // As the owner (no statement timeout) in the tenant's scope: memories untouched for 60 days.
  await t.owner.begin(async (sql) => {
    await sql`SELECT set_config('app.current_org_id', ${tenant.orgId}, true)`;
    await sql`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type,
                          importance, created_at, valid_from)
    SELECT ${tenant.orgId}, 'mem_chunk' || g, 1, 'agent', 'note ' || g, sha256(g::text::bytea),
           'semantic',
           0.9, now() - interval '60 days', now() - interval '60 days'
    FROM generate_series(1, ${ROWS}) AS g`;
  });
  await t.owner`ANALYZE memories`;
}, 240_000);

afterAll(() => t.close());

test("decay over a tenant larger than one statement may touch finishes in chunks", async () => {
  const options = { halfLifeHours: 24, floor: 0.2 };
  const now = new Date();
  expect(await decayImportance(t.deps.db, now, options, 250)).toBe(ROWS);
  // A rerun at the same instant moves nothing.
  expect(await decayImportance(t.deps.db, now, options, 250)).toBe(0);
  const high = await t.owner.begin(async (sql) => {
    await sql`SELECT set_config('app.current_org_id', ${tenant.orgId}, true)`;
    return sql<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE importance > 0.21`;
  });
  expect(high[0]!.n).toBe(0);
}, 240_000);
