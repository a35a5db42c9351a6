// AUTO is never a 503 while one retriever still answers (issue 22 item 5): LEXICAL, the retriever
// AUTO always runs, cannot read its postings, and VECTOR's answer comes back with LEXICAL named as
// left out. PostgreSQL: an exclusive lock held elsewhere makes LEXICAL's statement run out of time
// in its savepoint. PGlite enforces no statement_timeout (and has one connection, so nothing can
// hold a lock against the recall): there the postings table is renamed away for the recall, and
// LEXICAL fails instead.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { privateTestApp, show, type Tenant, type TestApp } from "../../harness/app";
import { embeddedApp, type EmbeddedApp } from "../../harness/embedded-app";
import { lockTable } from "../../harness/table-lock";
import { recall, seed } from "./seed";

const AGENT = "auto-timeout";
const TIMEOUT_MS = 400;
const TURNS = [
  "The user drinks oat milk lattes.",
  "Melanie signed up for a pottery class.",
  "The trip to Lisbon is in May.",
];

async function seeded(app: TestApp, tenant: Tenant): Promise<string[]> {
  return seed(
    app,
    tenant,
    AGENT,
    TURNS.map((content) => ({ content })),
  );
}

/**
 * The recall of a turn by its own text: 200 from VECTOR alone, LEXICAL named as left out for `why`.
 */
async function answersWithoutLexical(app: TestApp, tenant: Tenant, ids: string[], why: string) {
  const res = await recall(app, tenant.key, { agent_id: AGENT, query: TURNS[0] });
  expect(res.status, show(res)).toBe(200);
  expect(res.body.fusion.strategies).toEqual(["VECTOR"]);
  expect(res.body.note).toContain(`LEXICAL left out: ${why}`);
  expect(res.body.results[0].memory_id).toBe(ids[0]);
  expect(res.body.results[0].retrievers).toEqual(["VECTOR"]);
}

describe("PostgreSQL: LEXICAL runs out of time", () => {
  let t: TestApp;
  let tenant: Tenant;
  let ids: string[];
  beforeAll(async () => {
    t = await privateTestApp("auto_timeout", { RECALL_TIMEOUT_MS: TIMEOUT_MS });
    tenant = await t.tenant("auto-timeout");
    ids = await seeded(t, tenant);
  }, 60_000);
  afterAll(() => t.close());

  test("AUTO answers from VECTOR and names LEXICAL's timeout", async () => {
    const lock = lockTable(t.owner, "memory_terms");
    try {
      await lock.isLocked;
      await answersWithoutLexical(t, tenant, ids, `did not finish within ${TIMEOUT_MS} ms`);
    } finally {
      await lock.release();
    }
    // The lock gone, the same recall fuses both again.
    const res = await recall(t, tenant.key, { agent_id: AGENT, query: TURNS[0] });
    expect(res.body.fusion.strategies, show(res)).toEqual(["LEXICAL", "VECTOR"]);
  });
});

describe("embedded (PGlite): LEXICAL fails", () => {
  let e: EmbeddedApp;
  let tenant: Tenant;
  let ids: string[];
  beforeAll(async () => {
    e = await embeddedApp("auto-timeout");
    tenant = await e.tenant("auto-timeout");
    ids = await seeded(e.app, tenant);
  }, 240_000);
  afterAll(() => e.close());

  test("AUTO answers from VECTOR and names LEXICAL's failure", async () => {
    await e.deps.db.primary`ALTER TABLE memory_terms RENAME TO memory_terms_away`;
    try {
      await answersWithoutLexical(e.app, tenant, ids, "failed");
    } finally {
      await e.deps.db.primary`ALTER TABLE memory_terms_away RENAME TO memory_terms`;
    }
  });
});
