// AUTO's retrievers beside LEXICAL (issue 22 item 5): each in a tenant transaction of its own when
// the tenant's share and the pool have room for one now, else after LEXICAL in the recall's own
// transaction. The share bounds them (a tenant allowed one transaction runs its AUTO in one), a
// small pool never deadlocks on recalls that each want more connections, and a retriever that runs
// out of time beside LEXICAL is left out with a note. Transactions are counted as withTenant counts
// them (db.stats.inFlight), at their peak.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../../../src/data/pools";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { embeddedApp, type EmbeddedApp } from "../../harness/embedded-app";
import { seedOrgChart } from "../../graph/cypher/org-chart";
import { lockTable } from "../../harness/table-lock";
import { recall } from "./seed";

const AGENT = "auto-concurrency";
/** Names a memo of the org chart with a relation cue: AUTO fuses LEXICAL, ASK and VECTOR. */
const QUESTION = "Who is Alice's manager?";
const FUSED = ["LEXICAL", "ASK", "VECTOR"];
const TIMEOUT_MS = 400;

/** The most tenant transactions open at once from now on, as withTenant counts them. */
function peakTransactions(db: Database): { peak: number } {
  const seen = { peak: db.stats.inFlight };
  let now = db.stats.inFlight;
  Object.defineProperty(db.stats, "inFlight", {
    get: () => now,
    set: (value: number) => {
      now = value;
      seen.peak = Math.max(seen.peak, value);
    },
  });
  return seen;
}

async function fusedAnswer(app: TestApp, tenant: Tenant) {
  const res = await recall(app, tenant.key, { agent_id: AGENT, query: QUESTION, top_k: 5 });
  expect(res.status, show(res)).toBe(200);
  expect(res.body.fusion.strategies).toEqual(FUSED);
  return res.body.results.map((r: { memory_id: string }) => r.memory_id) as string[];
}

describe("PostgreSQL: within the tenant's share", () => {
  let one: TestApp;
  let three: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    one = await testApp({ TENANT_DB_CONCURRENCY: 1 });
    three = await testApp({ TENANT_DB_CONCURRENCY: 3 });
    tenant = await one.tenant("auto-concurrency");
    await seedOrgChart(one, tenant, AGENT);
  }, 60_000);
  afterAll(async () => {
    await one.close();
    await three.close();
  });

  test("one transaction allowed: the same AUTO answer in one; three: in three", async () => {
    const inOne = peakTransactions(one.deps.db);
    const alone = await fusedAnswer(one, tenant);
    expect(inOne.peak).toBe(1);
    const inThree = peakTransactions(three.deps.db);
    const beside = await fusedAnswer(three, tenant);
    expect(inThree.peak).toBe(3);
    expect(beside).toEqual(alone);
  });
});

describe("PostgreSQL: a pool of two connections", () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await testApp({ DATABASE_POOL_MAX: 2, TENANT_DB_CONCURRENCY: 8 });
    tenant = await t.tenant("auto-concurrency-pool");
    await seedOrgChart(t, tenant, AGENT);
  }, 60_000);
  afterAll(() => t.close());

  test("four AUTO recalls at once all answer the same", async () => {
    // Were each recall to wait for connections beside its own, the two holding the pool would wait
    // on each other for good.
    const answers = await Promise.all([1, 2, 3, 4].map(() => fusedAnswer(t, tenant)));
    for (const ids of answers) expect(ids).toEqual(answers[0]!);
  });
});

describe("PostgreSQL: a retriever beside LEXICAL runs out of time", () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await testApp({ RECALL_TIMEOUT_MS: TIMEOUT_MS });
    tenant = await t.tenant("auto-concurrency-timeout");
    await seedOrgChart(t, tenant, AGENT);
  }, 60_000);
  afterAll(() => t.close());

  test("ASK on locked edges is left out with a note; LEXICAL and VECTOR answer", async () => {
    const peak = peakTransactions(t.deps.db);
    const lock = lockTable(t.owner, "edges");
    try {
      await lock.isLocked;
      const res = await recall(t, tenant.key, { agent_id: AGENT, query: QUESTION, top_k: 5 });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.fusion.strategies).toEqual(["LEXICAL", "VECTOR"]);
      expect(res.body.note).toContain(`ASK left out: did not finish within ${TIMEOUT_MS} ms`);
      expect(res.body.results.length).toBeGreaterThan(0);
    } finally {
      await lock.release();
    }
    expect(peak.peak).toBe(3);
  });
});

describe("embedded (PGlite): one connection", () => {
  let e: EmbeddedApp;
  let tenant: Tenant;
  beforeAll(async () => {
    e = await embeddedApp("auto-concurrency");
    tenant = await e.tenant("auto-concurrency");
    await seedOrgChart(e.app, tenant, AGENT);
  }, 240_000);
  afterAll(() => e.close());

  test("four AUTO recalls at once all answer, each in its one transaction", async () => {
    const open = peakTransactions(e.deps.db);
    const answers = await Promise.all([1, 2, 3, 4].map(() => fusedAnswer(e.app, tenant)));
    for (const ids of answers) expect(ids).toEqual(answers[0]!);
    expect(open.peak).toBeLessThanOrEqual(4);
  });
});
