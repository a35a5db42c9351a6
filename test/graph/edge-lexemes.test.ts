// The facts' postings (sql/0442, docs/recall.md), in both database modes: edge_lexemes holds
// exactly the lexemes of every edge's fact, whatever wrote or changed it (the app role never
// deletes edges); TRIPLET finds facts by their words from them, and never another tenant's.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../../src/data/pools";
import { withTenant } from "../../src/data/with-tenant";
import { show, type Tenant, type TestApp } from "../harness/app";
import { twoTenantModes } from "../harness/two-tenant-modes";
import { seed } from "../http/recall/seed";
import { seedGraph } from "./seed-graph";

const AGENT = "edge-lexemes";

async function drift(
  db: Database,
  orgId: string,
): Promise<Array<{ side: string; edge_id: string; lexeme: string }>> {
  return [
    ...(await withTenant(
      db,
      orgId,
      (tx) => tx<Array<{ side: string; edge_id: string; lexeme: string }>>`
    WITH postings AS (SELECT agent_id, lexeme, edge_id FROM edge_lexemes),
    documents AS (SELECT e.agent_id, l.lexeme, e.edge_id FROM edges e, unnest(tsvector_to_array(e.search_document)) AS l(lexeme))
    SELECT 'extra' AS side, edge_id, lexeme FROM (SELECT * FROM postings EXCEPT ALL SELECT * FROM documents) AS extra
    UNION ALL SELECT 'missing', edge_id, lexeme FROM (SELECT * FROM documents EXCEPT ALL SELECT * FROM postings) AS missing`,
    )),
  ];
}

const modes = twoTenantModes("edge-lexemes");

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

    test("postings follow inserts and fact changes; TRIPLET answers from them", async () => {
      const people = Array.from({ length: 30 }, (_, i) => `Person${i} works at Acme.`);
      const ids = await seed(app, tenant, AGENT, [
        ...people.map((content) => ({ content })),
        { content: "Acme is headquartered in Rotterdam." },
      ]);
      const memos = [
        { key: "acme", type: "ORG", name: "Acme" },
        { key: "rotterdam", type: "PLACE", name: "Rotterdam" },
        ...people.map((_, i) => ({ key: `p${i}`, type: "PERSON", name: `Person${i}` })),
      ];
      const edges = [
        ...people.map((_, i) => ({
          key: `w${i}`,
          from: `p${i}`,
          rel: "WORKS_AT",
          to: "acme",
          fact: `Person${i} works at Acme`,
          sources: [ids[i]!],
        })),
        {
          key: "hq",
          from: "acme",
          rel: "HEADQUARTERED_IN",
          to: "rotterdam",
          fact: "Acme is headquartered in Rotterdam",
          sources: [ids[30]!],
        },
      ];
      const graph = await seedGraph(app.deps.db, tenant.orgId, AGENT, memos, edges);
      expect(await drift(app.deps.db, tenant.orgId)).toEqual([]);

      const triplet = async (key: string, query: string) => {
        const res = await app.request("POST", "/v1/memories/recall", {
          key,
          body: { agent_id: AGENT, strategy: "TRIPLET", query, top_k: 3 },
        });
        expect(res.status, show(res)).toBe(200);
        return res.body.graph.facts.map((f: { edge_id: string }) => f.edge_id);
      };
      expect(await triplet(tenant.key, "where are the headquarters")).toEqual([graph.edge.hq]);
      expect(await triplet(other.key, "where are the headquarters")).toEqual([]);

      await withTenant(app.deps.db, tenant.orgId, async (tx) => {
        await tx`UPDATE edges SET fact = 'Acme is based in Delft' WHERE edge_id = ${graph.edge.hq!}`;
      });
      expect(await drift(app.deps.db, tenant.orgId)).toEqual([]);
      expect(await triplet(tenant.key, "where are the headquarters")).toEqual([]);
      expect(await triplet(tenant.key, "based in Delft")).toEqual([graph.edge.hq]);
    });
  });
}
