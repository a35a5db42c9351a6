// CYPHER semantics on a seeded graph: patterns in every direction, bounded walks from either end,
// paths, WHERE operators, aggregation, DISTINCT, ORDER BY / SKIP / LIMIT, as_of, and grounding ids.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryGraph } from "../../../src/domain/graph/cypher-query";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import { seedOrgChart, type OrgChart } from "./org-chart";

const AGENT = "agent-cypher-query";
let t: TestApp;
let a: Tenant;
let g: OrgChart;

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("cypher-query");
  g = await seedOrgChart(t, a, AGENT);
});
afterAll(() => t.close());

const run = (text: string, params: Record<string, unknown> = {}, asOf: Date | null = null) =>
  queryGraph(t.deps.db, t.config, { orgId: a.orgId, agentId: AGENT, text, params, asOf });

describe("patterns", () => {
  test("one hop with a parameter", async () => {
    const r = await run(
      "MATCH (a:Person {name: $name})-[:REPORTS_TO]->(m) RETURN m.name AS manager",
      { name: "Alice" },
    );
    expect(r.rows).toEqual([{ manager: "Bob" }]);
    expect(r.columns).toEqual(["manager"]);
    expect(r.memoIds).toEqual([g.memo.bob!]);
  });

  test("two hops, and the incoming direction", async () => {
    expect(
      (
        await run("MATCH (a {name: $n})-[:REPORTS_TO]->()-[:REPORTS_TO]->(top) RETURN top.name", {
          n: "Alice",
        })
      ).rows,
    ).toEqual([{ "top.name": "Carol" }]);
    expect((await run("MATCH (c {name: 'Carol'})<-[:REPORTS_TO]-(x) RETURN x.name")).rows).toEqual([
      { "x.name": "Bob" },
    ]);
  });

  test("variable length from the anchored start and from the anchored end", async () => {
    const down = await run(
      "MATCH (a {name: 'Alice'})-[r:REPORTS_TO*1..3]->(x) RETURN x.name AS name, size(r) AS hops ORDER BY hops",
    );
    expect(down.rows).toEqual([
      { name: "Bob", hops: 1 },
      { name: "Carol", hops: 2 },
    ]);
    const up = await run(
      "MATCH (x)-[:REPORTS_TO*1..2]->(c:PERSON {name: 'Carol'}) RETURN x.name AS name ORDER BY name",
    );
    expect(up.rows).toEqual([{ name: "Alice" }, { name: "Bob" }]);
    const zero = await run(
      "MATCH (a {name: 'Alice'})-[:REPORTS_TO*0..1]->(x) RETURN x.name AS name ORDER BY name",
    );
    expect(zero.rows).toEqual([{ name: "Alice" }, { name: "Bob" }]);
  });

  test("undirected relationships match both orientations once each", async () => {
    const r = await run(
      "MATCH (b {name: 'Bob'})-[r]-(o) RETURN o.name AS other, type(r) AS rel ORDER BY other",
    );
    expect(r.rows).toEqual([
      { other: "Alice", rel: "REPORTS_TO" },
      { other: "Carol", rel: "REPORTS_TO" },
      { other: "Postgres", rel: "USES" },
    ]);
  });

  test("a path keeps the written order even when compiled from its other end", async () => {
    const r = await run(
      "MATCH p = (x)-[:REPORTS_TO*2]->(c {name: 'Carol'}) RETURN nodes(p) AS nodes, relationships(p) AS rels, length(p) AS hops",
    );
    expect(r.rows.length).toBe(1);
    const row = r.rows[0] as {
      nodes: Array<{ id: string; labels: string[]; properties: Record<string, unknown> }>;
      rels: Array<{ id: string; type: string; start: string; end: string }>;
      hops: number;
    };
    expect(row.nodes.map((n) => n.properties.name)).toEqual(["Alice", "Bob", "Carol"]);
    expect(row.nodes[0]).toMatchObject({
      id: g.memo.alice,
      labels: ["PERSON"],
      properties: { name: "Alice", team: "platform", level: 3, memo_type: "PERSON" },
    });
    expect(row.rels.map((e) => e.id)).toEqual([g.edge.a_b!, g.edge.b_c!]);
    expect(row.rels[0]).toMatchObject({ type: "REPORTS_TO", start: g.memo.alice, end: g.memo.bob });
    expect(row.hops).toBe(2);
    expect(new Set(r.edgeIds)).toEqual(new Set([g.edge.a_b!, g.edge.b_c!]));
    expect(new Set(r.memoIds)).toEqual(new Set([g.memo.alice!, g.memo.bob!, g.memo.carol!]));
  });
});

describe("WHERE", () => {
  const names = async (where: string, params: Record<string, unknown> = {}) =>
    (
      await run(`MATCH (p:PERSON) WHERE ${where} RETURN p.name AS name ORDER BY name`, params)
    ).rows.map((r) => r.name);

  test("comparisons on columns, properties and parameters", async () => {
    expect(await names("p.level >= 5")).toEqual(["Bob", "Carol"]);
    expect(await names("3 < p.level < 7")).toEqual(["Bob"]);
    expect(await names("p.name <> $n", { n: "Bob" })).toEqual(["Alice", "Carol"]);
    expect(await names("p.team = 'platform' AND NOT p.level > 3")).toEqual(["Alice"]);
    expect(await names("p.level = 3 XOR p.team = 'platform'")).toEqual(["Bob"]);
    expect(await names("p.level > 'x'")).toEqual([]);
  });

  test("string predicates, IN, IS NULL, label predicates and functions", async () => {
    expect(await names("p.name STARTS WITH 'A' OR p.name ENDS WITH 'ol'")).toEqual([
      "Alice",
      "Carol",
    ]);
    expect(await names("toLower(p.name) CONTAINS 'o'")).toEqual(["Bob", "Carol"]);
    expect(await names("p.name IN $names", { names: ["Bob", "Zed", "Carol"] })).toEqual([
      "Bob",
      "Carol",
    ]);
    expect(await names("id(p) IN $ids", { ids: [g.memo.alice, g.memo.acme] })).toEqual(["Alice"]);
    expect(await names("p.team IS NULL")).toEqual(["Carol"]);
    expect(await names("p.team IS NOT NULL AND p:PERSON|ORG")).toEqual(["Alice", "Bob"]);
    expect(await names("coalesce(p.team, 'none') = 'none'")).toEqual(["Carol"]);
    expect(await names("size(p.name) = 3 AND p.level IN [5, 7]")).toEqual(["Bob"]);
  });
});

describe("RETURN", () => {
  test("aggregation groups by the other columns; DISTINCT; ORDER BY, SKIP and LIMIT", async () => {
    const counts = await run(
      "MATCH (p:PERSON)-[r]->() RETURN p.name AS name, count(*) AS n, count(DISTINCT type(r)) AS kinds ORDER BY n DESC, name",
    );
    expect(counts.rows).toEqual([
      { name: "Alice", n: 2, kinds: 2 },
      { name: "Bob", n: 2, kinds: 2 },
      { name: "Carol", n: 1, kinds: 1 },
    ]);
    const teams = await run("MATCH (p:PERSON) RETURN DISTINCT p.team AS team ORDER BY team");
    expect(teams.rows).toEqual([{ team: "platform" }, { team: null }]);
    const paged = await run("MATCH (p:PERSON) RETURN p.name ORDER BY p.name DESC SKIP 1 LIMIT 1");
    expect(paged.rows).toEqual([{ "p.name": "Bob" }]);
    const total = await run("MATCH (n) WHERE n.name = 'nobody' RETURN count(n) AS n");
    expect(total.rows).toEqual([{ n: 0 }]);
  });

  test("nodes and relationships as JSON, RETURN *, labels(), properties(), id()", async () => {
    const r = await run(
      "MATCH (a {name: 'Bob'})-[u:USES {since: 2019}]->(t) RETURN *, labels(t) AS l, properties(u).since AS since, id(u) AS uid",
    );
    expect(r.columns).toEqual(["a", "u", "t", "l", "since", "uid"]);
    const row = r.rows[0]!;
    expect(row.a).toMatchObject({
      id: g.memo.bob,
      labels: ["PERSON"],
      properties: { name: "Bob", level: 5 },
    });
    expect(row.u).toMatchObject({
      id: g.edge.b_pg,
      type: "USES",
      start: g.memo.bob,
      end: g.memo.postgres,
      properties: { fact: "Bob uses Postgres", since: 2019 },
    });
    expect(row.l).toEqual(["TOOL"]);
    expect(row.since).toBe(2019);
    expect(row.uid).toBe(g.edge.b_pg!);
    expect(r.edgeIds).toEqual([g.edge.b_pg!]);
  });

  test("the row cap cuts the table and says so; unknown labels are explained", async () => {
    const capped = await queryGraph(
      t.deps.db,
      { ...t.config, CYPHER_MAX_ROWS: 2 },
      { orgId: a.orgId, agentId: AGENT, text: "MATCH (n) RETURN n.name", params: {}, asOf: null },
    );
    expect(capped.rows.length).toBe(2);
    expect(capped.truncated).toBe(true);
    expect(capped.notices.join()).toContain("cut at 2 rows");
    const unknown = await run("MATCH (n:Persn) RETURN n");
    expect(unknown.rows).toEqual([]);
    expect(unknown.notices.join()).toContain("PERSN names no memo type");
  });
});

describe("time", () => {
  test("now shows current edges; as_of shows what held then, superseded edges included", async () => {
    const q = "MATCH (a {name: 'Alice'})-[:LIVES_IN]->(c) RETURN c.name AS city";
    expect((await run(q)).rows).toEqual([{ city: "Berlin" }]);
    expect((await run(q, {}, new Date("2021-05-01T00:00:00Z"))).rows).toEqual([{ city: "Paris" }]);
    expect((await run(q, {}, new Date("2024-01-01T00:00:00Z"))).rows).toEqual([{ city: "Berlin" }]);
    expect(
      (
        await run(
          "MATCH (a)-[r:LIVES_IN]->() WHERE r.valid_at < '2022-01-01' RETURN r.fact AS f",
          {},
          new Date("2021-05-01T00:00:00Z"),
        )
      ).rows,
    ).toEqual([{ f: "Alice lived in Paris" }]);
  });
});
