// sql/0120 on a database that already holds memories, applied by the non-superuser owner login:
// every existing version takes its created_at as event time, even though memories forces row-level
// security.
import { expect, test } from "bun:test";
import { MIGRATIONS } from "../../sql/manifest";
import { emptyDatabase } from "../harness/databases";

const sql = await emptyDatabase("occ");

test("0120 gives existing versions occurred_at = created_at and makes the column NOT NULL DEFAULT now()", async () => {
  const [superuser] = await sql<
    { rolsuper: boolean }[]
  >`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`;
  expect(superuser!.rolsuper).toBe(false);
  const at = MIGRATIONS.findIndex((m) => m.name === "0120_memories_occurred_at.sql");
  expect(at).toBeGreaterThan(0);
  for (const m of MIGRATIONS.slice(0, at)) await sql.unsafe(m.sql);
  const created = new Date("2021-02-03T04:05:06Z");
  await sql.begin(async (tx) => {
    await tx`INSERT INTO orgs (id, name) VALUES ('org_occ', 'occ')`;
    await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', 'org_occ', true)`;
    await tx`INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at)
      VALUES ('org_occ', 'mem_a', 1, 'x', 'one', '\\x00', 'semantic', ${created}),
             ('org_occ', 'mem_b', 1, 'x', 'two', '\\x00', 'semantic', now())`;
  });
  for (const m of MIGRATIONS.slice(at)) await sql.unsafe(m.sql);
  const rows = await sql.begin(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', 'org_occ', true)`;
    return tx<
      { memory_id: string; same: boolean; occurred_at: Date }[]
    >`SELECT memory_id, occurred_at = created_at AS same, occurred_at FROM memories ORDER BY memory_id`;
  });
  expect(rows.map((r) => [r.memory_id, r.same])).toEqual([
    ["mem_a", true],
    ["mem_b", true],
  ]);
  expect(rows[0]!.occurred_at.toISOString()).toBe(created.toISOString());
  const [column] = await sql<{ is_nullable: string; column_default: string }[]>`
    SELECT is_nullable, column_default FROM information_schema.columns WHERE table_name = 'memories' AND column_name = 'occurred_at'`;
  expect(column).toEqual({ is_nullable: "NO", column_default: "now()" });
});
