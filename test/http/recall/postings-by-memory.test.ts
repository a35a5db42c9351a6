// A forget removes a closing version's postings by the memory (sql/0600), in both database modes:
// every BM25 posting and code token of each forgotten version goes, with its statistics, including
// one the current tokeniser would not produce (written before a tokeniser change), and nothing of
// the memories kept or of another tenant moves.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { twoTenantModes } from "../../harness/two-tenant-modes";
import { postingsOf, termsDrift } from "./lexemes";
import { seed } from "./seed";

const AGENT = "agent-postings-gone";

type Counts = { terms: number; tokens: number };

for (const mode of twoTenantModes("postings-gone")) {
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

    const counts = (orgId: string, ids: string[]) =>
      withTenant(app.deps.db, orgId, async (tx) => {
        const [row] = await tx<Counts[]>`SELECT
          (SELECT count(*)::int FROM memory_terms WHERE memory_id = ANY(${ids}::text[])) AS terms,
          (SELECT count(*)::int FROM memory_code_tokens WHERE memory_id = ANY(${ids}::text[]))
            AS tokens`;
        return row!;
      });

    const forget = async (key: string, ids: string[]) => {
      const res = await app.request("POST", "/v1/memories/forget", {
        key,
        body: { memory_ids: ids },
      });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.forgotten.length).toBe(ids.length);
    };

    test("a batch forget removes every posting and code token of its versions, and only those", async () => {
      const memories = Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? {
              content: `function parseUserName${i}(raw) { return raw.trim() }`,
              metadata: { language: "js" },
            }
          : { content: `The heron nest ${i} was counted by the ranger on Tuesday` },
      );
      const ids = await seed(app, tenant, AGENT, memories);
      const theirs = await seed(app, other, AGENT, memories.slice(0, 6));
      const [gone, kept] = [ids.slice(0, 20), ids.slice(20)];
      const before = await counts(tenant.orgId, kept);
      expect((await counts(tenant.orgId, gone)).tokens).toBeGreaterThan(0);
      const theirsBefore = await counts(other.orgId, theirs);

      await forget(tenant.key, gone);
      expect(await counts(tenant.orgId, gone)).toEqual({ terms: 0, tokens: 0 });
      expect(await counts(tenant.orgId, kept)).toEqual(before);
      expect(await counts(other.orgId, theirs)).toEqual(theirsBefore);
      expect(await termsDrift(app.deps.db, tenant.orgId)).toEqual([]);
      expect(await termsDrift(app.deps.db, other.orgId)).toEqual([]);
    });

    test("a posting the current tokeniser would not write (an earlier one did) goes with its memory", async () => {
      const [id] = await seed(app, tenant, AGENT, [{ content: "The kingfisher dived twice" }]);
      // An older tokeniser's term for this version, counted in the statistics as it would have
      // been.
      await withTenant(app.deps.db, tenant.orgId, async (tx) => {
        await tx`
          INSERT INTO memory_terms (org_id, agent_id, term, impact, memory_id, version, tf, doc_len)
          SELECT org_id, agent_id, 'kingfishr', impact, memory_id, version, tf, doc_len
          FROM memory_terms WHERE memory_id = ${id!} LIMIT 1`;
        await tx`
          INSERT INTO memory_term_stats (org_id, agent_id, term, docs, total_len)
          VALUES (${tenant.orgId}, ${AGENT}, 'kingfishr', 1, 0)
          ON CONFLICT (org_id, agent_id, term) DO UPDATE SET docs = memory_term_stats.docs + 1`;
      });
      expect((await postingsOf(app.deps.db, tenant.orgId, id!)).map((p) => p.lexeme)).toContain(
        "kingfishr",
      );

      await forget(tenant.key, [id!]);
      expect(await postingsOf(app.deps.db, tenant.orgId, id!)).toEqual([]);
      expect(await termsDrift(app.deps.db, tenant.orgId)).toEqual([]);
    });
  });
}
