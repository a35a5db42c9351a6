// The compiler against tenant isolation: generated queries full of other labels, table names, SQL
// fragments, quotes and comments, run for tenant A's agent, only ever see that agent's graph rows.
// Another tenant's graph, another agent's graph and non-graph tables (memories) carry markers that
// must never come back; and every generated query compiles to SQL that runs (no driver error).
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { queryGraph } from "../../../src/domain/graph/cypher-query";
import { AppError } from "../../../src/lib/errors";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import { seed } from "../../http/recall/seed";
import { seedGraph } from "../seed-graph";
import { cypherQueryArb } from "./generate";
import { seedOrgChart, type OrgChart } from "./org-chart";

const AGENT = "agent-isolation";
const MARKERS = [
  "zz-tenant-b-marker-zz",
  "zz-other-agent-marker-zz",
  "zz-memory-content-marker-zz",
];
let t: TestApp;
let a: Tenant;
let g: OrgChart;
let ownIds: Set<string>;

/** The same shape of graph under another tenant and another agent, named with markers. */
async function seedDecoy(tenant: Tenant, agentId: string, marker: string) {
  const [memory] = await seed(t, tenant, agentId, [{ content: `${marker} memory` }]);
  await seedGraph(
    t.deps.db,
    tenant.orgId,
    agentId,
    [
      {
        key: "alice",
        type: "PERSON",
        name: "Alice",
        properties: { name: marker, team: "platform", level: 3, secret: marker },
        sources: [memory!],
      },
      { key: "bob", type: "PERSON", name: marker, properties: { level: 5 } },
      { key: "tool", type: "TOOL", name: "Postgres", aliases: [marker] },
    ],
    [
      {
        key: "ab",
        from: "alice",
        rel: "REPORTS_TO",
        to: "bob",
        fact: marker,
        weight: 1,
        sources: [memory!],
      },
      {
        key: "bt",
        from: "bob",
        rel: "USES",
        to: "tool",
        fact: `${marker} uses`,
        properties: { note: marker },
      },
      { key: "ta", from: "tool", rel: "WORKS_AT", to: "alice", fact: "loop" },
    ],
  );
}

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("cypher-isolation-a");
  const b = await t.tenant("cypher-isolation-b");
  g = await seedOrgChart(t, a, AGENT);
  await seed(t, a, AGENT, [{ content: `${MARKERS[2]} lives only in the memories table` }]);
  await seedDecoy(b, AGENT, MARKERS[0]!);
  await seedDecoy(a, "agent-isolation-other", MARKERS[1]!);
  ownIds = new Set([...Object.values(g.memo), ...Object.values(g.edge)]);
});
afterAll(() => t.close());

test("no generated query reaches another tenant, another agent or a non-graph table, and none fails in SQL", async () => {
  let answered = 0;
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(cypherQueryArb(), async (q) => {
      let result;
      try {
        result = await queryGraph(t.deps.db, t.config, {
          orgId: a.orgId,
          agentId: AGENT,
          text: q.text,
          params: q.params,
          asOf: null,
        });
      } catch (error) {
        // Only compile-time type refusals may remain for checked queries (e.g. toLower of a
        // number); never a driver error.
        expect(
          error instanceof AppError && error.status === 422,
          `${q.text}\n${String(error)}`,
        ).toBe(true);
        refused++;
        return;
      }
      answered++;
      const text = JSON.stringify(result);
      for (const marker of MARKERS) expect(text, q.text).not.toContain(marker);
      for (const id of [...result.memoIds, ...result.edgeIds])
        expect(ownIds.has(id), `${id} from ${q.text}`).toBe(true);
    }),
    { numRuns: 100, seed: 1205 },
  );
  expect(answered).toBeGreaterThan(60);
  expect(refused).toBeLessThan(answered);
}, 60_000);

test("queries that try to name other tables, columns or tenants read only this agent's graph", async () => {
  const attempts: Array<[string, Record<string, unknown>]> = [
    ["MATCH (n:`memories`) RETURN n", {}],
    [
      "MATCH (n) WHERE n.org_id IS NOT NULL OR n.agent_id IS NOT NULL RETURN n.org_id, n.agent_id",
      {},
    ],
    ["MATCH (n {`org_id`: $org}) RETURN n", { org: "anything" }],
    [
      "MATCH (n) WHERE n.name = $x RETURN n.name",
      { x: "' OR 1=1; SELECT content FROM memories; --" },
    ],
    ["MATCH (n)-[r:`REPORTS_TO'); DROP TABLE edges; --`]->(m) RETURN m", {}],
    ["MATCH (n) WHERE n.`name') OR true OR ('x` = 1 RETURN n", {}],
    ["MATCH (n)-[*0..5]-(m) RETURN DISTINCT m.name AS name ORDER BY name", {}],
  ];
  for (const [text, params] of attempts) {
    const result = await queryGraph(t.deps.db, t.config, {
      orgId: a.orgId,
      agentId: AGENT,
      text,
      params,
      asOf: null,
    });
    const body = JSON.stringify(result);
    for (const marker of MARKERS) expect(body, text).not.toContain(marker);
    for (const id of [...result.memoIds, ...result.edgeIds])
      expect(ownIds.has(id), text).toBe(true);
  }
  const reach = await queryGraph(t.deps.db, t.config, {
    orgId: a.orgId,
    agentId: AGENT,
    text: attempts.at(-1)![0],
    params: {},
    asOf: null,
  });
  expect(reach.rows.map((r) => r.name)).toEqual([
    "Acme Corp",
    "Alice",
    "Berlin",
    "Bob",
    "Carol",
    "Paris",
    "Postgres",
  ]);
  const orgColumn = await queryGraph(t.deps.db, t.config, {
    orgId: a.orgId,
    agentId: AGENT,
    text: attempts[1]![0],
    params: {},
    asOf: null,
  });
  expect(orgColumn.rows).toEqual([]);
});

test("the query runs in a READ ONLY transaction: the database itself refuses writes there", async () => {
  const { withTenantRead } = await import("../../../src/data/with-tenant");
  const error = await withTenantRead(
    t.deps.db,
    a.orgId,
    (tx) => tx`UPDATE memos SET name = 'x' WHERE memo_id = ${g.memo.alice!}`,
  ).catch((e) => e);
  expect((error as { code?: string }).code).toBe("25006");
});
