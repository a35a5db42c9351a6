// sql/0430 on a database that already holds memories, applied by the non-superuser owner login: the
// current versions get their BM25 postings (memory_terms) and statistics (memory_term_stats),
// closed versions none, although the tables force row-level security; a deleted row takes its
// postings and its share of the statistics with it.
import { expect, test } from "bun:test";
import postgres from "postgres";
import { MIGRATIONS } from "../../sql/manifest";
import { emptyDatabase } from "../harness/databases";

const sql = await emptyDatabase("terms");

const asTenant = <T>(fn: (tx: postgres.TransactionSql) => Promise<T>) =>
  sql.begin(async (tx) => {
    await tx`SELECT set_config('app.current_org_id', 'org_terms', true)`;
    return fn(tx);
  }) as Promise<T>;
const postings = () =>
  asTenant(
    (tx) => tx<{ memory_id: string; version: number; term: string; tf: number; doc_len: number }[]>`
  SELECT memory_id, version, term, tf, doc_len FROM memory_terms ORDER BY memory_id, version, term`,
  );
const stats = () =>
  asTenant(
    (tx) => tx<{ agent_id: string; term: string; docs: string; total_len: string }[]>`
  SELECT agent_id, term, docs::text, total_len::text FROM memory_term_stats WHERE docs <> 0 ORDER BY agent_id, term`,
  );

test("0430 posts the BM25 terms of existing current versions only; a deleted row takes them back", async () => {
  const [superuser] = await sql<
    { rolsuper: boolean }[]
  >`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`;
  expect(superuser!.rolsuper).toBe(false);
  const at = MIGRATIONS.findIndex((m) => m.name === "0430_memory_terms.sql");
  expect(at).toBeGreaterThan(0);
  for (const m of MIGRATIONS.slice(0, at)) await sql.unsafe(m.sql);
  await sql`INSERT INTO orgs (id, name) VALUES ('org_terms', 'terms')`;
  await asTenant(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true)`;
    await tx`INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at, valid_to)
      VALUES ('org_terms', 'mem_a', 1, 'x', 'otters juggle pebbles', '\\x00', 'semantic', now(), now()),
             ('org_terms', 'mem_a', 2, 'x', 'otters crack otter shells', '\\x00', 'semantic', now(), NULL),
             ('org_terms', 'mem_b', 1, 'x', 'call getUserName', '\\x00', 'semantic', now(), NULL)`;
  });
  for (const m of MIGRATIONS.slice(at)) await sql.unsafe(m.sql);

  expect([...(await postings())]).toEqual([
    { memory_id: "mem_a", version: 2, term: "crack", tf: 1, doc_len: 4 },
    { memory_id: "mem_a", version: 2, term: "otter", tf: 2, doc_len: 4 },
    { memory_id: "mem_a", version: 2, term: "shell", tf: 1, doc_len: 4 },
    // With the stemmed whole identifier sql/0570 adds (getusernam), search_document's lexeme.
    { memory_id: "mem_b", version: 1, term: "call", tf: 1, doc_len: 6 },
    { memory_id: "mem_b", version: 1, term: "get", tf: 1, doc_len: 6 },
    { memory_id: "mem_b", version: 1, term: "getusernam", tf: 1, doc_len: 6 },
    { memory_id: "mem_b", version: 1, term: "getusername", tf: 1, doc_len: 6 },
    { memory_id: "mem_b", version: 1, term: "name", tf: 1, doc_len: 6 },
    { memory_id: "mem_b", version: 1, term: "user", tf: 1, doc_len: 6 },
  ]);
  expect((await stats()).find((s) => s.term === "")).toEqual({
    agent_id: "x",
    term: "",
    docs: "2",
    total_len: "10",
  });
  // No route deletes a memory row; an operator's DELETE must not leave derived rows behind.
  await asTenant((tx) => tx`DELETE FROM memories WHERE memory_id = 'mem_b'`);
  expect([...new Set((await postings()).map((p) => p.memory_id))]).toEqual(["mem_a"]);
  expect([...(await stats())]).toEqual([
    { agent_id: "x", term: "", docs: "1", total_len: "4" },
    { agent_id: "x", term: "crack", docs: "1", total_len: "0" },
    { agent_id: "x", term: "otter", docs: "1", total_len: "0" },
    { agent_id: "x", term: "shell", docs: "1", total_len: "0" },
  ]);
});
