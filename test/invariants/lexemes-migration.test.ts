// sql/0570 on a database that already holds memories, applied by the non-superuser owner login:
// the memory_lexemes table, its triggers and functions are gone; memory_terms is rebuilt so that
// each current version holds every lexeme of its search_document (closed versions nothing), its
// statistics follow, and applying the migration again changes nothing.
import { expect, test } from "bun:test";
import postgres from "postgres";
import { MIGRATIONS } from "../../sql/manifest";
import { emptyDatabase } from "../harness/databases";

const sql = await emptyDatabase("lexdrop");

const asTenant = <T>(fn: (tx: postgres.TransactionSql) => Promise<T>) =>
  sql.begin(async (tx) => {
    await tx`SELECT set_config('app.current_org_id', 'org_lex', true)`;
    return fn(tx);
  }) as Promise<T>;
const terms = () =>
  asTenant(
    (tx) => tx<{ memory_id: string; version: number; term: string }[]>`
  SELECT memory_id, version, term FROM memory_terms ORDER BY memory_id, version, term`,
  );
const stats = () =>
  asTenant(
    (tx) => tx<{ agent_id: string; term: string; docs: string }[]>`
  SELECT agent_id, term, docs::text FROM memory_term_stats WHERE docs <> 0
  ORDER BY agent_id, term`,
  );

test("0570 drops memory_lexemes, rebuilds memory_terms with search_document's lexemes", async () => {
  const [superuser] = await sql<
    { rolsuper: boolean }[]
  >`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`;
  expect(superuser!.rolsuper).toBe(false);
  const drop = MIGRATIONS.find((m) => m.name === "0570_memory_lexemes_drop.sql")!;
  const at = MIGRATIONS.indexOf(drop);
  expect(at).toBeGreaterThan(0);
  for (const m of MIGRATIONS.slice(0, at)) await sql.unsafe(m.sql);
  await sql`INSERT INTO orgs (id, name) VALUES ('org_lex', 'lex')`;
  await asTenant(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true)`;
    await tx`INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at, valid_to)
      VALUES ('org_lex', 'mem_a', 1, 'x', 'otters juggle pebbles', '\\x00', 'semantic', now(), now()),
             ('org_lex', 'mem_a', 2, 'x', 'otters call getUserNames', '\\x00', 'semantic', now(), NULL),
             ('org_lex', 'mem_b', 1, 'y', 'beavers build dams', '\\x00', 'semantic', now(), NULL)`;
  });
  // Before: memory_terms lacks the stemmed whole identifier that search_document holds.
  expect((await terms()).map((t) => t.term)).not.toContain("getusernam");
  for (const m of MIGRATIONS.slice(at)) await sql.unsafe(m.sql);

  const [gone] = await sql<{ table: string | null; triggers: number; functions: number }[]>`
    SELECT to_regclass('memory_lexemes')::text AS table,
      (SELECT count(*)::int FROM pg_trigger WHERE tgname LIKE 'memory_lexemes%') AS triggers,
      (SELECT count(*)::int FROM pg_proc WHERE proname LIKE 'svc_memory_lexemes%') AS functions`;
  expect(gone).toEqual({ table: null, triggers: 0, functions: 0 });
  const rebuilt = [...(await terms())];
  expect(rebuilt).toEqual([
    { memory_id: "mem_a", version: 2, term: "call" },
    { memory_id: "mem_a", version: 2, term: "get" },
    { memory_id: "mem_a", version: 2, term: "getusernam" },
    { memory_id: "mem_a", version: 2, term: "getusernames" },
    { memory_id: "mem_a", version: 2, term: "name" },
    { memory_id: "mem_a", version: 2, term: "otter" },
    { memory_id: "mem_a", version: 2, term: "user" },
    { memory_id: "mem_b", version: 1, term: "beaver" },
    { memory_id: "mem_b", version: 1, term: "build" },
    { memory_id: "mem_b", version: 1, term: "dam" },
  ]);
  const counted = [...(await stats())];
  expect(counted.find((s) => s.agent_id === "x" && s.term === "")).toEqual({
    agent_id: "x",
    term: "",
    docs: "1",
  });
  expect(counted.find((s) => s.agent_id === "x" && s.term === "getusernam")?.docs).toBe("1");

  // Idempotent: a second run leaves the same postings and statistics.
  await sql.unsafe(drop.sql);
  expect([...(await terms())]).toEqual(rebuilt);
  expect([...(await stats())]).toEqual(counted);
  // A closing version takes its postings with it, the rebuilt ones included.
  await asTenant((tx) => tx`UPDATE memories SET valid_to = now() WHERE memory_id = 'mem_a'`);
  expect((await terms()).map((t) => t.memory_id)).toEqual(["mem_b", "mem_b", "mem_b"]);
});
