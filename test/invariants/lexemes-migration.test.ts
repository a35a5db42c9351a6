// sql/0135 on a database that already holds memories, applied by the non-superuser owner login: the
// current versions get their postings (memory_lexemes) and closed versions none, even though both tables
// force row-level security; afterwards a deleted row takes its postings with it.
import { expect, test } from "bun:test";
import postgres from "postgres";
import { MIGRATIONS } from "../../sql/manifest";
import { emptyDatabase } from "../harness/databases";

const sql = await emptyDatabase("lex");

const asTenant = <T>(fn: (tx: postgres.TransactionSql) => Promise<T>) => sql.begin(async (tx) => {
  await tx`SELECT set_config('app.current_org_id', 'org_lex', true)`;
  return fn(tx);
}) as Promise<T>;
const postings = () => asTenant((tx) => tx<{ memory_id: string; version: number; lexeme: string }[]>`
  SELECT memory_id, version, lexeme FROM memory_lexemes ORDER BY memory_id, version, lexeme`);

test("0135 posts the lexemes of existing current versions only; a deleted row takes its postings", async () => {
  const [superuser] = await sql<{ rolsuper: boolean }[]>`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`;
  expect(superuser!.rolsuper).toBe(false);
  const at = MIGRATIONS.findIndex((m) => m.name === "0135_memory_lexemes.sql");
  expect(at).toBeGreaterThan(0);
  for (const m of MIGRATIONS.slice(0, at)) await sql.unsafe(m.sql);
  await sql`INSERT INTO orgs (id, name) VALUES ('org_lex', 'lex')`;
  await asTenant(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true)`;
    await tx`INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at, valid_to)
      VALUES ('org_lex', 'mem_a', 1, 'x', 'otters juggle pebbles', '\\x00', 'semantic', now(), now()),
             ('org_lex', 'mem_a', 2, 'x', 'otters crack shells', '\\x00', 'semantic', now(), NULL),
             ('org_lex', 'mem_b', 1, 'y', 'beavers build dams', '\\x00', 'semantic', now(), NULL)`;
  });
  for (const m of MIGRATIONS.slice(at)) await sql.unsafe(m.sql);

  expect([...await postings()]).toEqual([
    { memory_id: "mem_a", version: 2, lexeme: "crack" },
    { memory_id: "mem_a", version: 2, lexeme: "otter" },
    { memory_id: "mem_a", version: 2, lexeme: "shell" },
    { memory_id: "mem_b", version: 1, lexeme: "beaver" },
    { memory_id: "mem_b", version: 1, lexeme: "build" },
    { memory_id: "mem_b", version: 1, lexeme: "dam" },
  ]);
  // No route deletes a memory row; an operator's DELETE must not leave derived rows behind.
  await asTenant((tx) => tx`DELETE FROM memories WHERE memory_id = 'mem_b'`);
  expect((await postings()).map((p) => p.memory_id)).toEqual(["mem_a", "mem_a", "mem_a"]);
});
