// Each available strategy finds what it should, and never forgotten, expired, other agents' or
// other tenants' memories.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { privateTestApp, show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed } from "./seed";

let t: TestApp;
let a: Tenant;
let ids: string[];
const AGENT = "agent-strategies";

const DAY = 86_400_000;
const now = Date.now();
const today = new Date(now);
const utcDay = (back: number) =>
  new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) -
      back * DAY +
      12 * 3600_000,
  ).toISOString();

const MEMORIES = [
  { content: "The user prefers dark roast coffee every morning before work." }, // 0
  {
    content: "Deployment of the billing service happened with zero downtime.",
    occurred_at: utcDay(1),
  }, // 1
  { content: "Kubernetes cluster upgrade to version 1.29 is planned.", created_at: utcDay(20) }, // 2
  { content: "We chose PostgreSQL over MongoDB for the ledger because of transactions." }, // 3
  {
    content:
      "function parseHttpRequest(raw) lives in src/http/parse_request.ts and returns a Request",
    metadata: { kind: "code", language: "ts" },
  }, // 4
  {
    content: "def load_user_profile(user_id): reads the profile row",
    metadata: { language: "python" },
  }, // 5
  {
    content: "Team retrospective about the launch plan and marketing budget.",
    occurred_at: "2025-03-10T10:00:00Z",
  }, // 6
  {
    content: "Product launch happened on March 20, 2025 with a press release.",
    occurred_at: "2025-03-21T09:00:00Z",
  }, // 7
  {
    content: "Post-launch bug triage session for the mobile app.",
    occurred_at: "2025-04-02T09:00:00Z",
  }, // 8
  { content: "Notes mention parseHttpRequest in prose but this is not marked as code." }, // 9
  { content: "Reminder: quarterly tax filing deadline for the accounting team." }, // 10
];

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("recall-strategies");
  ids = await seed(t, a, AGENT, MEMORIES);
});
afterAll(() => t.close());

describe("VECTOR", () => {
  // Deterministic: its own app, tenant and agent, at a dimension the HNSW index does not cover, so
  // recall is an exact scan (the HNSW path is covered by the plan test below). The expected order
  // is computed here with exact cosine over the same embeddings, so a ranking regression fails, and
  // the index's approximation over the whole suite's shared rows cannot.
  test("finds a paraphrase that shares few words with the memory", async () => {
    const exact = await testApp({ EMBEDDING_DIMENSIONS: 1024 });
    try {
      const tenant = await exact.tenant("recall-vector-exact");
      const agent = "agent-vector-exact";
      const seeded = await seed(exact, tenant, agent, MEMORIES);
      const query = "what kind of coffee does the user like drinking";
      const res = await recall(exact, tenant.key, {
        agent_id: agent,
        query,
        strategy: "VECTOR",
        top_k: 3,
      });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.strategy).toBe("VECTOR");
      expect(res.body.routing).toEqual({
        requested: "VECTOR",
        method: "pinned",
        reason: "strategy VECTOR requested",
      });

      const { vectors } = await exact.deps.embedder.embed(
        [query, ...MEMORIES.map((m) => m.content)],
        { orgId: tenant.orgId },
      );
      const [q, ...docs] = vectors as number[][];
      const cosine = (a: number[], b: number[]) =>
        a.reduce((s, x, i) => s + x * b[i]!, 0) /
        Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
      const expected = docs
        .map((d, i) => ({ id: seeded[i]!, score: cosine(q!, d) }))
        .sort((x, y) => y.score - x.score);
      expect(expected[0]!.id).toBe(seeded[0]!); // the premise: the paraphrase is the nearest memory
      expect(idsOf(res)).toEqual(expected.slice(0, 3).map((e) => e.id));
      for (const [i, r] of (res.body.results as Array<{ score: number }>).entries())
        expect(r.score).toBeCloseTo(expected[i]!.score, 4);
      expect(res.body.results[0].score).toBeGreaterThan(res.body.results[1].score);
      expect(res.body.results[0]).toMatchObject({
        content: MEMORIES[0]!.content,
        memory_type: "semantic",
        version: 1,
        agent_id: agent,
      });
    } finally {
      await exact.close();
    }
  });

  test("the query plan uses the HNSW expression index with iterative scans", async () => {
    const { withTenant } = await import("../../../src/data/with-tenant");
    const { setHnswSearch, nearestQuery } = await import("../../../src/data/queries/recall/vector");
    // Its own database: the service refreshes statistics after other tests' bulk writes, and with
    // a handful of rows per agent the planner then rightly prefers an exact btree scan and sort.
    const own = await privateTestApp("hnsw_plan");
    const tenant = await own.tenant("hnsw-plan");
    const vector = (await own.deps.embedder.embed(["coffee"], { orgId: tenant.orgId })).vectors[0]!;
    const plan = await withTenant(own.deps.db, tenant.orgId, async (tx) => {
      // no seq scan and no sort: the only plan left is an ordered index scan, which exists only if
      // the query repeats the index expression and predicate verbatim. Without enable_sort = off,
      // table statistics (a full suite's rows, a fresh cluster) can make a btree scan + top-N sort
      // the cheaper plan.
      await tx`SET LOCAL enable_seqscan = off`;
      await tx`SET LOCAL enable_sort = off`;
      await setHnswSearch(tx, 100, 20000);
      const query = nearestQuery(
        tx,
        {
          filter: { orgId: tenant.orgId, agentId: AGENT },
          vector,
          dimensions: 1536,
          limit: 5,
          efSearch: 100,
          maxScanTuples: 20000,
          exactMaxRows: 0,
        },
        "index",
      );
      const rows = await tx`EXPLAIN ${query as never}`;
      return rows.map((r: Record<string, string>) => Object.values(r)[0]).join("\n");
    }).finally(() => own.close());
    expect(plan).toContain("memories_embedding_1536");
  });
});

describe("LEXICAL", () => {
  test("matches stemmed words and ranks an exact phrase first", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: '"billing service" deployment',
      strategy: "LEXICAL",
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual([ids[1]!]);
  });

  test("memories holding some of the words are ranked by BM25, best first", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "quarterly tax deadline for coffee",
      strategy: "LEXICAL",
      top_k: 5,
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual([ids[10]!, ids[0]!]);
  });

  test("a misspelt short query falls back to trigrams", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Kubernetse",
      strategy: "LEXICAL",
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toContain(ids[2]!);
    expect(res.body.note).toContain("trigram");
  });

  test("a short query matches by prefix", async () => {
    const res = await recall(t, a.key, { agent_id: AGENT, query: "Postgre", strategy: "LEXICAL" });
    expect(idsOf(res)).toContain(ids[3]!);
  });

  test("words absent from every memory find nothing", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "zebra xylophone quantum",
      strategy: "LEXICAL",
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.results).toEqual([]);
  });
});

describe("CODE", () => {
  test("finds an identifier by its camelCase parts and a path, only in code memories", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "where is parseHttpRequest defined",
      strategy: "CODE",
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual([ids[4]!]);
    const byPath = await recall(t, a.key, {
      agent_id: AGENT,
      query: "src/http/parse_request.ts",
      strategy: "CODE",
    });
    expect(idsOf(byPath)[0]).toBe(ids[4]!);
  });

  test("snake_case parts match the identifier", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "loadUserProfile",
      strategy: "CODE",
    });
    expect(idsOf(res)).toEqual([ids[5]!]);
  });
});

describe("TEMPORAL", () => {
  test("'yesterday' keeps only yesterday's memories", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "what did we deploy yesterday",
      strategy: "TEMPORAL",
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res)).toEqual([ids[1]!]);
    expect(res.body.window.expression).toBe("yesterday");
  });

  test("'in March 2025' ranks by relevance inside the month, newest first on ties", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "what happened in March 2025",
      strategy: "TEMPORAL",
    });
    expect(idsOf(res)).toEqual([ids[7]!, ids[6]!]);
    const relevant = await recall(t, a.key, {
      agent_id: AGENT,
      query: "marketing budget in March 2025",
      strategy: "TEMPORAL",
    });
    expect(idsOf(relevant)).toEqual([ids[6]!, ids[7]!]);
  });

  test("'before the launch' is dated by the memory that names the launch", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "what did we discuss before the launch",
      strategy: "TEMPORAL",
      top_k: 3,
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.window.to).toBe("2025-03-20T00:00:00.000Z");
    expect(idsOf(res)).toEqual([ids[6]!]);
    const after = await recall(t, a.key, {
      agent_id: AGENT,
      query: "bugs after the product launch",
      strategy: "TEMPORAL",
      top_k: 1,
    });
    expect(idsOf(after)[0]).toBe(ids[8]!);
  });
});

describe("scope", () => {
  test("forgotten and expired memories never come back", async () => {
    const [gone, expiring] = await seed(t, a, AGENT, [
      { content: "ephemeral walrus fact one" },
      { content: "ephemeral walrus fact two" },
    ]);
    const f = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_id: gone },
    });
    expect(f.status, show(f)).toBe(200);
    const { withTenant } = await import("../../../src/data/with-tenant");
    await withTenant(
      t.deps.db,
      a.orgId,
      (tx) =>
        tx`UPDATE memories SET expires_at = now() - interval '1 second' WHERE memory_id = ${expiring!}`,
    );
    for (const strategy of ["VECTOR", "LEXICAL", "TEMPORAL", "AUTO"]) {
      const res = await recall(t, a.key, {
        agent_id: AGENT,
        query: "ephemeral walrus fact",
        strategy,
      });
      expect(res.status, show(res)).toBe(200);
      expect(idsOf(res)).not.toContain(gone!);
      expect(idsOf(res)).not.toContain(expiring!);
    }
  });

  test("another agent's and another tenant's memories are invisible", async () => {
    const b = await t.tenant("recall-other");
    await seed(t, b, AGENT, [
      { content: "The user prefers dark roast coffee every morning before work." },
    ]);
    await seed(t, a, "agent-other", [
      { content: "The user prefers dark roast coffee every morning before work." },
    ]);
    for (const strategy of ["VECTOR", "LEXICAL", "TEMPORAL"]) {
      const res = await recall(t, a.key, {
        agent_id: AGENT,
        query: "dark roast coffee",
        strategy,
        top_k: 50,
      });
      expect(
        idsOf(res)
          .filter((id) => id !== ids[0])
          .every((id) => ids.includes(id)),
        show(res),
      ).toBe(true);
    }
    const fromB = await recall(t, b.key, {
      agent_id: AGENT,
      query: "billing deployment",
      strategy: "LEXICAL",
    });
    expect(fromB.body.results).toEqual([]);
  });

  test("filters narrow by memory_type, metadata containment, store time and event time", async () => {
    const byMeta = await recall(t, a.key, {
      agent_id: AGENT,
      query: "profile request",
      strategy: "LEXICAL",
      filters: { metadata: { language: "python" } },
    });
    expect(idsOf(byMeta)).toEqual([ids[5]!]);
    const byEventTime = await recall(t, a.key, {
      agent_id: AGENT,
      query: "launch",
      strategy: "LEXICAL",
      filters: { occurred_after: "2025-03-15T00:00:00Z", occurred_before: "2025-12-01T00:00:00Z" },
    });
    expect(idsOf(byEventTime).sort()).toEqual([ids[7]!, ids[8]!].sort());
    const tenDaysAgo = new Date(now - 10 * DAY).toISOString();
    const storedBefore = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Kubernetes cluster",
      strategy: "LEXICAL",
      filters: { created_before: tenDaysAgo },
    });
    expect(idsOf(storedBefore)).toEqual([ids[2]!]);
    const storedAfter = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Kubernetes cluster",
      strategy: "LEXICAL",
      filters: { created_after: tenDaysAgo },
    });
    expect(storedAfter.body.results).toEqual([]);
    const byType = await recall(t, a.key, {
      agent_id: AGENT,
      query: "launch",
      strategy: "LEXICAL",
      filters: { memory_type: ["procedural"] },
    });
    expect(byType.body.results).toEqual([]);
  });
});
