// LEXICAL's postings (sql/0430 and sql/0570, docs/recall.md), in both database modes: memory_terms
// holds exactly the BM25 terms of every current version, among them every lexeme of its
// search_document, and memory_term_stats counts them, whatever wrote it (single and batch store,
// PATCH, forget, a moved valid_from); BM25 answers from them with the caller's filters, expiry and
// exclusions, over the whole agent (under a narrowing filter, its most recent memories), and never
// sees another tenant's postings.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allThenAnyWords, anyWordSearch } from "../../../src/data/queries/recall/lexical";
import { withTenant } from "../../../src/data/with-tenant";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { twoTenantModes } from "../../harness/two-tenant-modes";
import { lexemesMissing, postingsOf, termsDrift } from "./lexemes";
import { idsOf, recall, seed } from "./seed";

const AGENT = "agent-lexemes";

const modes = twoTenantModes("lexemes");

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let other: Tenant;
    let close: () => Promise<void>;

    beforeAll(async () => {
      let tenants: [Tenant, Tenant];
      ({ app, tenants, close } = await mode.open());
      [tenant, other] = tenants;
    }, 60_000);
    afterAll(() => close());

    const lexical = async (query: string, extra: Record<string, unknown> = {}) => {
      const res = await recall(app, tenant.key, {
        agent_id: AGENT,
        query,
        strategy: "LEXICAL",
        top_k: 5,
        ...extra,
      });
      expect(res.status, show(res)).toBe(200);
      return res;
    };

    test("single and batch stores post every term of each current version, and nothing else", async () => {
      const single = await app.request("POST", "/v1/memories", {
        key: tenant.key,
        body: {
          agent_id: AGENT,
          content: "The zebra enclosure reopened after the storm",
          metadata: { keeper: "Imani" },
        },
      });
      expect(single.status, show(single)).toBe(201);
      await seed(app, tenant, AGENT, [
        { content: "The giraffe calf was weighed on Monday" },
        { content: "A flamingo flock arrived from the coast", memory_type: "episodic" },
        { content: "Keepers repainted the flamingo pond", created_at: "2020-01-02T03:04:05Z" }, // moves valid_from in place
      ]);
      expect(await lexemesMissing(app.deps.db, tenant.orgId)).toEqual([]);
      expect(await termsDrift(app.deps.db, tenant.orgId)).toEqual([]);
      // The weighted document's lexemes: content (A) and metadata strings (C) alike.
      const zebra = (await postingsOf(app.deps.db, tenant.orgId, single.body.memory_id)).map(
        (p) => p.lexeme,
      );
      expect(zebra).toEqual(
        expect.arrayContaining(["zebra", "enclosur", "reopen", "storm", "imani"]),
      );
      expect(zebra).not.toContain("the");
    });

    test("a PATCH moves the postings to the new version and a forget removes them; the any-word tier follows", async () => {
      const [id] = await seed(app, tenant, AGENT, [
        { content: "The okapi prefers shade in the afternoon" },
      ]);
      // Two words, one of which no memory holds: BM25 ranks it by the other.
      expect(idsOf(await lexical("okapi sunscreen"))).toEqual([id!]);

      const patch = await app.request("PATCH", `/v1/memories/${id}`, {
        key: tenant.key,
        body: { content: "The tapir prefers shade in the afternoon" },
      });
      expect(patch.status, show(patch)).toBe(200);
      const after = await postingsOf(app.deps.db, tenant.orgId, id!);
      expect(new Set(after.map((p) => p.version))).toEqual(new Set([2]));
      expect(after.map((p) => p.lexeme)).toContain("tapir");
      expect(after.map((p) => p.lexeme)).not.toContain("okapi");
      expect(await lexemesMissing(app.deps.db, tenant.orgId)).toEqual([]);
      expect(await termsDrift(app.deps.db, tenant.orgId)).toEqual([]);
      expect(idsOf(await lexical("okapi sunscreen"))).toEqual([]);
      const tapir = await lexical("tapir sunscreen");
      expect(idsOf(tapir)).toEqual([id!]);
      expect(tapir.body.results[0].version).toBe(2);
      expect(tapir.body.results[0].content).toBe("The tapir prefers shade in the afternoon");

      const forget = await app.request("POST", "/v1/memories/forget", {
        key: tenant.key,
        body: { memory_id: id },
      });
      expect(forget.status, show(forget)).toBe(200);
      expect(await postingsOf(app.deps.db, tenant.orgId, id!)).toEqual([]);
      expect(await lexemesMissing(app.deps.db, tenant.orgId)).toEqual([]);
      expect(await termsDrift(app.deps.db, tenant.orgId)).toEqual([]);
      expect(idsOf(await lexical("tapir sunscreen"))).toEqual([]);
    });

    test("the any-word tier keeps the caller's filters, skips expired memories and what the first tier found", async () => {
      const [plain, episodic] = await seed(app, tenant, AGENT, [
        { content: "The lemur troop groomed each other", metadata: { zone: "madagascar" } },
        { content: "A lemur escaped to the café roof", memory_type: "episodic" },
      ]);
      const expired = await app.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: AGENT, content: "The lemur keeper left a note", ttl_seconds: 1 },
      });
      expect(expired.status, show(expired)).toBe(201);
      await withTenant(
        app.deps.db,
        tenant.orgId,
        (tx) =>
          tx`UPDATE memories SET expires_at = now() - interval '1 minute' WHERE memory_id = ${expired.body.memory_id}`,
      );

      expect(new Set(idsOf(await lexical("lemur umbrella")))).toEqual(new Set([plain!, episodic!]));
      expect(
        idsOf(await lexical("lemur umbrella", { filters: { memory_type: "episodic" } })),
      ).toEqual([episodic!]);
      expect(
        idsOf(await lexical("lemur umbrella", { filters: { metadata: { zone: "madagascar" } } })),
      ).toEqual([plain!]);
      // "lemur troop": the first tier finds the memory holding both words; the any-word tier adds
      // the other once.
      const both = await lexical("lemur troop");
      expect(idsOf(both)).toEqual([plain!, episodic!]);
    });

    test("BM25 ranks the whole agent; under a narrowing filter, the most recent memories that pass it (scanLimit)", async () => {
      const agent = "agent-lexemes-recent";
      const [oldest, middle, newest] = await seed(app, tenant, agent, [
        {
          content: "wombat burrow one",
          memory_type: "episodic",
          created_at: "2020-01-01T00:00:00Z",
        },
        { content: "wombat burrow two", created_at: "2021-01-01T00:00:00Z" },
        { content: "wombat burrow three", created_at: "2022-01-01T00:00:00Z" },
      ]);
      const search = (scanLimit: number, memoryTypes?: string[]) =>
        withTenant(app.deps.db, tenant.orgId, (tx) =>
          anyWordSearch(tx, {
            filter: { orgId: tenant.orgId, agentId: agent, memoryTypes },
            words: ["wombat"],
            weights: [1],
            excludeIds: [],
            limit: 10,
            scanLimit,
          }),
        );
      const all = new Set([oldest!, middle!, newest!]);
      expect(new Set((await search(10)).map((r) => r.memory_id))).toEqual(all);
      expect(new Set((await search(1)).map((r) => r.memory_id))).toEqual(all);
      expect(new Set((await search(2, ["episodic", "semantic"])).map((r) => r.memory_id))).toEqual(
        new Set([middle!, newest!]),
      );
      // The most recent episodic memory is the oldest memory: a window of one still holds it.
      expect((await search(1, ["episodic"])).map((r) => r.memory_id)).toEqual([oldest!]);
    });

    test("under a filter, document frequencies are counted over the memories that pass it", async () => {
      const agent = "agent-lexemes-idf";
      const [both] = await seed(app, tenant, agent, [
        { content: "quokka and numbat", memory_type: "episodic" },
        { content: "quokka and bilby", memory_type: "episodic" },
        { content: "quokka and dingo", memory_type: "episodic" },
        // "numbat" is common outside the filter; counted there, it would weigh less than nothing.
        ...Array.from({ length: 30 }, (_, i) => ({ content: `numbat sighting ${i}` })),
      ]);
      const rows = await withTenant(app.deps.db, tenant.orgId, (tx) =>
        anyWordSearch(tx, {
          filter: { orgId: tenant.orgId, agentId: agent, memoryTypes: ["episodic"] },
          words: ["quokka", "numbat"],
          weights: [1, 1],
          excludeIds: [],
          limit: 10,
          scanLimit: 100,
        }),
      );
      expect(rows).toHaveLength(3);
      expect(rows[0]!.memory_id).toBe(both!);
      expect(rows.every((r) => r.score > 0)).toBe(true);
    });

    test("the all-words tier from the rarest lexeme's postings answers exactly as the scan of every document", async () => {
      const agent = "agent-lexemes-whole";
      await seed(app, tenant, agent, [
        { content: "Alice's e-mail follow-up about the Q3 launch" },
        { content: "The e-mail server moved to the EU region on 2024-03-01" },
        { content: "Alice owns the launch checklist and the follow-up call" },
        { content: "Ticket 12345: the launch slipped by a week", metadata: { owner: "Alice" } },
        { content: "Nothing about any of that", memory_type: "episodic" },
        // The stemmed whole identifier (getusernam, httpserver): a lexeme the camelCase split
        // lacks.
        { content: "Call getUserNames() before the HTTPServer launch" },
        { content: "get_user_name moved to the auth module" },
        ...Array.from({ length: 20 }, (_, i) => ({
          content: `launch note ${i} for the region team`,
        })),
      ]);
      const tier = (text: string, everyLexemeRequired: boolean, memoryTypes?: string[]) =>
        withTenant(app.deps.db, tenant.orgId, (tx) =>
          allThenAnyWords(
            tx,
            {
              filter: { orgId: tenant.orgId, agentId: agent, memoryTypes },
              text,
              prefix: null,
              everyLexemeRequired,
              limit: 10,
            },
            { words: [], weights: [], limit: 0, scanLimit: 100 },
          ),
        );
      // [from the rarest lexeme's postings, from the scan of every document]
      const both = (text: string, memoryTypes?: string[]) =>
        Promise.all([tier(text, true, memoryTypes), tier(text, false, memoryTypes)]);
      let answered = 0;
      for (const text of [
        "Alice's e-mail",
        "e-mail follow-up",
        "launch region",
        "ticket 12345",
        "launch Alice",
        "2024-03-01 region",
        "the of and",
        "launch zeppelin",
        "ALICE LAUNCH",
        "launch",
        "getusername",
        "getUserNames launch",
        "httpserver",
        "HTTPServer",
        "get_user_name",
        "user name",
      ]) {
        const [fromPostings, fromScan] = await both(text);
        expect(
          fromPostings.map((r) => [r.memory_id, r.score]),
          text,
        ).toEqual(fromScan.map((r) => [r.memory_id, r.score]));
        if (fromScan.length > 0) answered++;
      }
      expect(answered).toBeGreaterThanOrEqual(12);
      const [typed, scanned] = await both("launch note", ["episodic"]);
      expect(typed).toEqual(scanned);
    });

    test("a lowercase identifier finds the memory spelling it in camelCase", async () => {
      const agent = "agent-lexemes-identifier";
      const [renamed] = await seed(app, tenant, agent, [
        { content: "Renamed fetchOrderTotals in the billing service" },
        { content: "The billing service answers slowly" },
      ]);
      const res = await recall(app, tenant.key, {
        agent_id: agent,
        query: "fetchordertotals",
        strategy: "LEXICAL",
      });
      expect(res.status, show(res)).toBe(200);
      expect(idsOf(res)[0]).toBe(renamed!);
    });

    test("another tenant's postings are invisible, and its any-word recall finds nothing of ours", async () => {
      const [ours] = await seed(app, tenant, AGENT, [
        { content: "The pangolin curled into a ball" },
      ]);
      expect((await postingsOf(app.deps.db, tenant.orgId, ours!)).length).toBeGreaterThan(0);
      expect(await postingsOf(app.deps.db, other.orgId, ours!)).toEqual([]);
      const theirs = await recall(app, other.key, {
        agent_id: AGENT,
        query: "pangolin umbrella",
        strategy: "LEXICAL",
      });
      expect(theirs.status, show(theirs)).toBe(200);
      expect(idsOf(theirs)).toEqual([]);
    });
  });
}
