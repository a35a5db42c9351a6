// The recall contract: bounds, validation, unavailable strategies, auth, audit, access counting,
// redaction.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { withTenant } from "../../../src/data/with-tenant";
import { drainAudit } from "../../../src/domain/audit/drain";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed } from "./seed";

let t: TestApp;
let a: Tenant;
let ids: string[];
const AGENT = "agent-contract";

beforeAll(async () => {
  t = await testApp({ RECALL_TOP_K_MAX: 20, RECALL_TOP_K_DEFAULT: 3 });
  a = await t.tenant("recall-contract");
  ids = await seed(
    t,
    a,
    AGENT,
    Array.from({ length: 25 }, (_, i) => ({ content: `shared topic note number ${i}` })),
  );
});
afterAll(() => t.close());

describe("validation", () => {
  test("top_k defaults, caps at the maximum and rejects beyond it with 422", async () => {
    const dflt = await recall(t, a.key, {
      agent_id: AGENT,
      query: "shared topic",
      strategy: "LEXICAL",
    });
    expect(dflt.status, show(dflt)).toBe(200);
    expect(dflt.body.results).toHaveLength(3);
    expect(dflt.body.top_k).toBe(3);
    const max = await recall(t, a.key, {
      agent_id: AGENT,
      query: "shared topic",
      strategy: "LEXICAL",
      top_k: 20,
    });
    expect(max.body.results).toHaveLength(20);
    for (const top_k of [21, 0, -1, 1.5, "many", 1e12]) {
      const res = await recall(t, a.key, { agent_id: AGENT, query: "shared", top_k });
      expect(res.status, show(res)).toBe(422);
      expect(
        res.body.errors.some((e: { path: string }) => e.path.includes("top_k")),
        show(res),
      ).toBe(true);
    }
  });

  test("an unknown strategy is a 422 naming the field", async () => {
    const res = await recall(t, a.key, { agent_id: AGENT, query: "x", strategy: "FUZZY" });
    expect(res.status, show(res)).toBe(422);
    expect(res.body.errors[0].path).toContain("strategy");
  });

  test("missing, blank, oversized or NUL-bearing fields are 422 and write no audit row", async () => {
    const before = await auditCount();
    const bodies = [
      { query: "x" },
      { agent_id: AGENT },
      { agent_id: AGENT, query: "   " },
      { agent_id: AGENT, query: "a\u0000b" },
      { agent_id: AGENT, query: "x".repeat(t.config.RECALL_QUERY_MAX_CHARS + 1) },
      { agent_id: AGENT, query: "x", filters: { metadata: [1, 2] } },
      { agent_id: AGENT, query: "x", filters: { metadata: { k: "\u0000" } } },
      { agent_id: AGENT, query: "x", filters: { created_after: "yesterday" } },
      {
        agent_id: AGENT,
        query: "x",
        filters: { created_after: "2025-02-01T00:00:00Z", created_before: "2025-01-01T00:00:00Z" },
      },
    ];
    for (const body of bodies) {
      const res = await recall(t, a.key, body);
      expect(res.status, `${JSON.stringify(body).slice(0, 80)} → ${show(res)}`).toBe(422);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await auditCount()).toBe(before);
  });

  test("no JSON body shape produces a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            agent_id: fc.oneof(fc.string(), fc.constant(AGENT)),
            query: fc.string({ maxLength: 60 }),
            top_k: fc.option(fc.integer()),
            strategy: fc.option(
              fc.constantFrom(
                "AUTO",
                "VECTOR",
                "LEXICAL",
                "TEMPORAL",
                "CODE",
                "GRAPH",
                "TRIPLET",
                "TRACE",
                "ASK",
                "CYPHER",
                "x",
              ),
            ),
            filters: fc.option(fc.jsonValue()),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const res = await recall(t, a.key, body);
          expect(res.status < 500, show(res)).toBe(true);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});

describe("every strategy is available", () => {
  for (const strategy of [
    "VECTOR",
    "LEXICAL",
    "TEMPORAL",
    "CODE",
    "GRAPH",
    "TRIPLET",
    "TRACE",
    "ASK",
  ]) {
    test(`${strategy} pinned runs, over JSON and over the stream`, async () => {
      const res = await recall(t, a.key, {
        agent_id: AGENT,
        query: "what does the user drink",
        strategy,
      });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.strategy).toBe(strategy);
      expect(res.body.routing).toMatchObject({ requested: strategy, method: "pinned" });
      const stream = await t.request("POST", "/v1/memories/recall/stream", {
        key: a.key,
        body: { agent_id: AGENT, query: "what does the user drink", strategy },
      });
      expect(stream.status).toBe(200);
      expect(stream.text).toContain("event: summary");
    });
  }

  test("the OpenAPI description lists no unavailable strategy, no 501, and documents the stream framing", async () => {
    const res = await t.request("GET", "/openapi.json");
    const text = JSON.stringify(res.body);
    expect(text).toContain("/v1/memories/recall/stream");
    expect(text).toContain("- `ASK`: A direct question");
    expect(text).not.toContain("unavailable (501");
    expect(Object.keys(res.body.paths["/v1/memories/recall"].post.responses)).not.toContain("501");
    expect(text).toContain("event: summary");
  });
});

describe("security", () => {
  test("no key → 401, bad key → 401", async () => {
    expect((await recall(t, null as never, { agent_id: AGENT, query: "x" })).status).toBe(401);
    expect((await recall(t, "svc_sk_bogus", { agent_id: AGENT, query: "x" })).status).toBe(401);
  });
});

async function auditCount(): Promise<number> {
  const [row] = await withTenant(
    t.deps.db,
    a.orgId,
    (tx) =>
      tx<{ n: number }[]>`SELECT count(*)::int AS n FROM audit_pending WHERE operation = 'recall'`,
  );
  return row!.n;
}

describe("side effects", () => {
  test("one audit row per recall, naming the results, in the recall's transaction", async () => {
    const before = await auditCount();
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "number 7",
      strategy: "LEXICAL",
      top_k: 2,
    });
    expect(res.status, show(res)).toBe(200);
    expect(await auditCount()).toBe(before + 1);
    const [row] = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) => tx<{ agent_id: string; target_ids: string[]; detail: Record<string, unknown> }[]>`
      SELECT agent_id, target_ids, detail FROM audit_pending WHERE operation = 'recall' ORDER BY id DESC LIMIT 1`,
    );
    expect(row!.agent_id).toBe(AGENT);
    expect(row!.target_ids).toEqual(idsOf(res));
    expect(row!.detail).toMatchObject({
      strategy: "LEXICAL",
      requested_strategy: "LEXICAL",
      routing: "pinned",
      top_k: 2,
      result_count: res.body.results.length,
    });
    expect(JSON.stringify(row!.detail)).not.toContain("number 7");
  });

  test("access is counted once per recall on the returned memories only, when the audit drain chains the recall's row", async () => {
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ids.map(async (id) => {
            const got = await t.request("GET", `/v1/memories/${id}`, { key: a.key });
            return [
              id,
              {
                access_count: got.body.access_count as number,
                last_accessed_at: got.body.last_accessed_at as string | null,
              },
            ] as const;
          }),
        ),
      );
    await drainAudit(t.deps.db, { orgId: a.orgId });
    const before = await counts();
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: '"note number 12"',
      strategy: "LEXICAL",
      top_k: 1,
    });
    await recall(t, a.key, {
      agent_id: AGENT,
      query: '"note number 12"',
      strategy: "LEXICAL",
      top_k: 1,
    });
    expect(idsOf(res)).toEqual([ids[12]!]);
    expect(await counts()).toEqual(before); // nothing until the drain chains the recalls' rows
    // A PATCH before the drain: the counters are the memory's, so the new version shows them too.
    expect(
      (
        await t.request("PATCH", `/v1/memories/${ids[12]}`, {
          key: a.key,
          body: { importance: 0.6 },
        })
      ).status,
    ).toBe(200);
    await drainAudit(t.deps.db, { orgId: a.orgId });
    await drainAudit(t.deps.db, { orgId: a.orgId }); // nothing left: a second drain counts nothing again
    const after = await counts();
    for (const id of ids)
      expect(after[id]!.access_count - before[id]!.access_count, id).toBe(id === ids[12] ? 2 : 0);
    expect(Date.parse(after[ids[12]!]!.last_accessed_at!)).toBeGreaterThan(
      Date.parse(before[ids[12]!]!.last_accessed_at ?? "1970-01-01T00:00:00Z"),
    );
    const history = await t.request("GET", `/v1/memories/${ids[12]}/history`, { key: a.key });
    expect(history.body.versions.map((v: { access_count: number }) => v.access_count)).toEqual([
      after[ids[12]!]!.access_count,
      after[ids[12]!]!.access_count,
    ]);
  });

  test("forget removes a memory's access counters with it; a recall of it drained afterwards counts nothing", async () => {
    const [id] = await seed(t, a, AGENT, [
      { content: "a memory recalled, then forgotten: zebra crossing" },
    ]);
    expect(
      idsOf(
        await recall(t, a.key, {
          agent_id: AGENT,
          query: "zebra crossing",
          strategy: "LEXICAL",
          top_k: 1,
        }),
      ),
    ).toEqual([id!]);
    await drainAudit(t.deps.db, { orgId: a.orgId });
    const rows = () =>
      withTenant(
        t.deps.db,
        a.orgId,
        (tx) => tx`SELECT 1 FROM memory_access WHERE memory_id = ${id!}`,
      );
    expect(await rows()).toHaveLength(1);
    await recall(t, a.key, {
      agent_id: AGENT,
      query: "zebra crossing",
      strategy: "LEXICAL",
      top_k: 1,
    }); // pending when forgotten
    expect(
      (await t.request("POST", "/v1/memories/forget", { key: a.key, body: { memory_id: id } }))
        .status,
    ).toBe(200);
    expect(await rows()).toHaveLength(0);
    await drainAudit(t.deps.db, { orgId: a.orgId });
    expect(await rows()).toHaveLength(0);
  });
});

describe("RETRIEVAL_REDACTION_ENABLED", () => {
  const SECRET =
    "Contact jane.doe@example.com or +1 415-555-0132, card 4111 1111 1111 1111, key sk-proj-abcdefghijklmnopqrstuvwxyz123456, order 4111 1111 1111 1112.";

  test("masks emails, phones, Luhn-valid cards and API keys in content and metadata; stored data is untouched", async () => {
    const r = await testApp({ RETRIEVAL_REDACTION_ENABLED: true });
    try {
      const tenant = await r.tenant("redaction");
      const [id] = await seed(r, tenant, "agent-r", [
        { content: SECRET, metadata: { owner: "ops@example.org", nested: ["token=abcdef123456"] } },
      ]);
      const res = await recall(r, tenant.key, {
        agent_id: "agent-r",
        query: "contact card key",
        strategy: "LEXICAL",
      });
      expect(res.status, show(res)).toBe(200);
      const hit = res.body.results[0];
      expect(hit.content).toBe(
        "Contact [REDACTED:email] or [REDACTED:phone], card [REDACTED:card], key [REDACTED:secret], order 4111 1111 1111 1112.",
      );
      expect(hit.metadata).toEqual({
        owner: "[REDACTED:email]",
        nested: ["token=[REDACTED:secret]"],
      });
      expect(res.body.redactions).toBe(6);
      const stored = await r.request("GET", `/v1/memories/${id}`, { key: tenant.key });
      expect(stored.body.content).toBe(SECRET);
    } finally {
      await r.close();
    }
  });

  test("off by default: content comes back verbatim", async () => {
    const [id] = await seed(t, a, "agent-plain", [{ content: SECRET }]);
    const res = await recall(t, a.key, {
      agent_id: "agent-plain",
      query: "contact card key",
      strategy: "LEXICAL",
    });
    expect(idsOf(res)).toEqual([id!]);
    expect(res.body.results[0].content).toBe(SECRET);
    expect(res.body.redactions).toBe(0);
  });
});
