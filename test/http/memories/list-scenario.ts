// GET /v1/memories and GET /v1/agents as one scenario run unchanged on PostgreSQL (list.test.ts)
// and PGlite (test/embedded/memories-list-embedded.test.ts): filters, order, cursors, forgotten
// memories, agents' counts, scopes, 422s and another tenant's view.
import { expect, test } from "bun:test";
import type { Tenant, TestApp, TestResponse } from "../../harness/app";
import { show } from "../../harness/app";
import { withTenant } from "../../../src/data/with-tenant";

export type ListHarness = { app: TestApp; tenant(name: string): Promise<Tenant> };

type Seed = {
  agent_id: string;
  content: string;
  memory_type?: string;
  metadata?: object;
  occurred_at?: string;
};

const SEEDS: Seed[] = [
  {
    agent_id: "alice",
    content: "Alice prefers tea",
    metadata: { user: "u1", priority: 3 },
    occurred_at: "2024-01-05",
  },
  {
    agent_id: "alice",
    content: "Alice met Bob in Paris",
    memory_type: "episodic",
    metadata: { user: "u2" },
    occurred_at: "2024-03-01",
  },
  {
    agent_id: "alice",
    content: "Deploy with ops/deploy.sh",
    memory_type: "procedural",
    metadata: { user: "u1", priority: "3" },
  },
  {
    agent_id: "alice",
    content: "Alice's flight lands at 9",
    memory_type: "episodic",
    metadata: { user: "u1", vip: true },
  },
  { agent_id: "alice", content: "Alice uses vim", metadata: { user: "u3" } },
  { agent_id: "bob", content: "Bob likes jazz" },
  { agent_id: "bob", content: "Bob lives in Lyon", metadata: { user: "u1" } },
];

export function listScenario(setup: () => ListHarness) {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  const ids: string[] = [];
  let datasetMemory = "";
  const get = (path: string, key = a.key): Promise<TestResponse> => t.request("GET", path, { key });
  const idsOf = (r: TestResponse): string[] => r.body.items.map((m: any) => m.memory_id);
  const alice = () => ids.slice(0, 5);

  async function walk(path: string): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: TestResponse = await get(`${path}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.status, show(r)).toBe(200);
      seen.push(...idsOf(r));
      cursor = r.body.next_cursor;
    } while (cursor);
    return seen;
  }

  test("seed: memories stored one by one through the API", async () => {
    const h = setup();
    t = h.app;
    a = await h.tenant("list-a");
    b = await h.tenant("list-b");
    for (const seed of SEEDS) {
      const r = await t.request("POST", "/v1/memories", { key: a.key, body: seed });
      expect(r.status, show(r)).toBe(201);
      ids.push(r.body.memory_id);
    }
    const dataset = await t.request("POST", "/v1/datasets", {
      key: a.key,
      body: { name: "handbook" },
    });
    expect(dataset.status, show(dataset)).toBe(201);
    const stored = await t.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "carol", content: "Handbook page 1", dataset_id: dataset.body.dataset_id },
    });
    datasetMemory = stored.body.memory_id;
  });

  test("one agent's memories, newest first; order=asc oldest first", async () => {
    const desc = await get("/v1/memories?agent_id=alice");
    expect(desc.status, show(desc)).toBe(200);
    expect(idsOf(desc)).toEqual([...alice()].reverse());
    expect(desc.body.items[0]).toMatchObject({
      agent_id: "alice",
      content: "Alice uses vim",
      version: 1,
    });
    expect(desc.body.next_cursor).toBeNull();
    const asc = await get("/v1/memories?agent_id=alice&order=asc");
    expect(idsOf(asc)).toEqual(alice());
  });

  test("cursors walk every page without gaps or repeats, in both orders", async () => {
    expect(await walk("/v1/memories?agent_id=alice&limit=2")).toEqual([...alice()].reverse());
    expect(await walk("/v1/memories?agent_id=alice&limit=2&order=asc")).toEqual(alice());
    expect(await walk("/v1/memories?limit=3")).toEqual([...ids, datasetMemory].reverse());
    const first = await get("/v1/memories?agent_id=alice&limit=2&order=asc");
    const clash = await get(
      `/v1/memories?agent_id=alice&order=desc&cursor=${first.body.next_cursor}`,
    );
    expect(clash.status).toBe(422);
    expect(JSON.stringify(clash.body)).toContain("order");
  });

  test("filters: memory type, metadata equality, dataset, created and occurred ranges", async () => {
    const [tea, paris, deploy, flight] = alice() as [string, string, string, string];
    expect(idsOf(await get("/v1/memories?agent_id=alice&memory_type=episodic"))).toEqual([
      flight,
      paris,
    ]);
    expect(idsOf(await get("/v1/memories?metadata.user=u1"))).toEqual([
      ids[6]!,
      flight,
      deploy,
      tea,
    ]);
    expect(idsOf(await get("/v1/memories?agent_id=alice&metadata.priority=3"))).toEqual([
      deploy,
      tea,
    ]);
    expect(
      idsOf(await get("/v1/memories?agent_id=alice&metadata.user=u1&metadata.vip=true")),
    ).toEqual([flight]);
    expect(idsOf(await get("/v1/memories?metadata.user=nobody"))).toEqual([]);
    const dataset = (await get(`/v1/memories?agent_id=carol`)).body.items[0].dataset_id;
    expect(idsOf(await get(`/v1/memories?dataset_id=${dataset}`))).toEqual([datasetMemory]);
    const occurred = await get(
      "/v1/memories?agent_id=alice&occurred_after=2024-01-01&occurred_before=2024-02-01",
    );
    expect(idsOf(occurred)).toEqual([tea]);
    const all = (await get("/v1/memories?agent_id=alice&order=asc")).body.items as any[];
    const since = encodeURIComponent(all[3].created_at);
    const created = await get(`/v1/memories?agent_id=alice&created_after=${since}`);
    expect(idsOf(created)).toEqual(alice().slice(3).reverse());
    expect(idsOf(await get("/v1/memories?created_before=2000-01-01"))).toEqual([]);
  });

  test("a PATCHed memory is listed once, as its new version; forgotten ones only on request", async () => {
    const [tea, paris] = alice() as [string, string];
    const patched = await t.request("PATCH", `/v1/memories/${tea}`, {
      key: a.key,
      body: { content: "Alice prefers green tea" },
    });
    expect(patched.status, show(patched)).toBe(200);
    const forgot = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_id: paris },
    });
    expect(forgot.body.forgotten).toEqual([paris]);
    const live = (await get("/v1/memories?agent_id=alice&order=asc")).body.items as any[];
    expect(live.map((m) => m.memory_id)).toEqual(alice().filter((id) => id !== paris));
    expect(live[0]).toMatchObject({
      memory_id: tea,
      version: 2,
      content: "Alice prefers green tea",
    });
    const history = await get("/v1/memories?agent_id=alice&order=asc&include_forgotten=true");
    expect(idsOf(history)).toEqual(alice());
    expect(history.body.items[1].deleted_at).not.toBeNull();
    expect(await walk("/v1/memories?agent_id=alice&include_forgotten=true&limit=1")).toEqual(
      [...alice()].reverse(),
    );
  });

  test("GET /v1/agents: counts, first and last activity, graph presence, pages", async () => {
    const r = await get("/v1/agents");
    expect(r.status, show(r)).toBe(200);
    expect(
      r.body.items.map((x: any) => [x.agent_id, x.memories, x.forgotten, x.has_graph]),
    ).toEqual([
      ["alice", 4, 1, false],
      ["bob", 2, 0, false],
      ["carol", 1, 0, false],
    ]);
    const aliceRow = r.body.items[0];
    expect(Date.parse(aliceRow.first_activity_at)).toBeLessThan(
      Date.parse(aliceRow.last_activity_at),
    );
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: TestResponse = await get(
        `/v1/agents?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
      );
      pages.push(...page.body.items.map((x: any) => x.agent_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(pages).toEqual(["alice", "bob", "carol"]);
  });

  test("has_graph follows the agent's live memos (a retired memo does not count)", async () => {
    await withTenant(t.deps.db, a.orgId, async (tx) => {
      await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, origin)
        VALUES (${a.orgId}, 'memo_list_bob', 'bob', 'PERSON', 'Bob', 'bob', 'extracted')`;
      await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, origin, retired_at, retired_reason)
        VALUES (${a.orgId}, 'memo_list_carol', 'carol', 'PERSON', 'Carol', 'carol', 'extracted', now(), 'pruned')`;
    });
    const r = await get("/v1/agents");
    expect(r.body.items.map((x: any) => [x.agent_id, x.has_graph])).toEqual([
      ["alice", false],
      ["bob", true],
      ["carol", false],
    ]);
  });

  test("another tenant sees none of it, even with the first tenant's agent ids and cursors", async () => {
    expect((await get("/v1/memories?agent_id=alice", b.key)).body.items).toEqual([]);
    expect((await get("/v1/memories?include_forgotten=true", b.key)).body.items).toEqual([]);
    expect((await get("/v1/agents", b.key)).body.items).toEqual([]);
    const page = await get("/v1/memories?limit=1");
    const borrowed = await get(`/v1/memories?cursor=${page.body.next_cursor}`, b.key);
    expect(borrowed.status, show(borrowed)).toBe(200);
    expect(borrowed.body.items).toEqual([]);
    const agents = await get("/v1/agents?limit=1");
    expect((await get(`/v1/agents?cursor=${agents.body.next_cursor}`, b.key)).body.items).toEqual(
      [],
    );
  });

  test("both routes need memories:read", async () => {
    const auditOnly = await t.request("POST", "/v1/api-keys", {
      key: a.key,
      body: { name: "audit", scopes: ["audit:read"] },
    });
    const reader = await t.request("POST", "/v1/api-keys", {
      key: a.key,
      body: { name: "r", scopes: ["memories:read"] },
    });
    for (const path of ["/v1/memories", "/v1/agents"]) {
      const refused = await get(path, auditOnly.body.key);
      expect(refused.status, path).toBe(403);
      expect(refused.body.missing_scopes).toEqual(["memories:read"]);
      expect((await get(path, reader.body.key)).status, path).toBe(200);
    }
  });

  test("bad input is a 422 problem naming the field", async () => {
    const cases: Array<[string, string]> = [
      ["order=sideways", "order"],
      ["created_after=yesterday", "created_after"],
      ["occurred_before=2026-02-30", "occurred_before"],
      ["cursor=nonsense", "cursor"],
      ["memory_type=dream", "memory_type"],
      ["agent=alice", "agent"],
      ["metadata.=x", "metadata."],
      ["metadata.user=a&metadata.user=b", "metadata.user"],
      ["limit=0", "limit"],
      ["include_forgotten=maybe", "include_forgotten"],
      ["metadata.a%00=1", "metadata"],
      [Array.from({ length: 11 }, (_, i) => `metadata.k${i}=v`).join("&"), "metadata"],
    ];
    for (const [query, field] of cases) {
      const r = await get(`/v1/memories?${query}`);
      expect(r.status, `${query}: ${show(r)}`).toBe(422);
      expect(r.body.type).toEndWith("/errors/validation-failed");
      expect(JSON.stringify(r.body), query).toContain(field);
    }
    for (const query of ["cursor=nonsense", "limit=500"]) {
      expect((await get(`/v1/agents?${query}`)).status, query).toBe(422);
    }
  });
}
