// A small org chart used by the CYPHER and ASK tests: memories stored through HTTP, graph rows
// seeded.
import type { Tenant, TestApp } from "../../harness/app";
import { seed } from "../../http/recall/seed";
import { seedGraph, type SeededGraph } from "../seed-graph";

export const ORG_CHART_MEMORIES = [
  "Alice reports to Bob since the reorg.", // 0
  "Bob reports to Carol, the VP of engineering.", // 1
  "Alice moved to Berlin in 2023.", // 2
  "Bob uses Postgres for every service he owns.", // 3
  "Carol works at Acme Corp.", // 4
  "Alice lived in Paris from 2020 until 2023.", // 5
];

export type OrgChart = SeededGraph & { memories: string[] };

export async function seedOrgChart(t: TestApp, tenant: Tenant, agentId: string): Promise<OrgChart> {
  const memories = await seed(
    t,
    tenant,
    agentId,
    ORG_CHART_MEMORIES.map((content) => ({ content })),
  );
  const graph = await seedGraph(
    t.deps.db,
    tenant.orgId,
    agentId,
    [
      {
        key: "alice",
        type: "PERSON",
        name: "Alice",
        aliases: ["ali"],
        sources: [memories[0]!],
        properties: { team: "platform", level: 3 },
      },
      {
        key: "bob",
        type: "PERSON",
        name: "Bob",
        sources: [memories[1]!],
        properties: { team: "platform", level: 5 },
      },
      {
        key: "carol",
        type: "PERSON",
        name: "Carol",
        sources: [memories[4]!],
        properties: { level: 7 },
      },
      { key: "berlin", type: "PLACE", name: "Berlin" },
      { key: "paris", type: "PLACE", name: "Paris" },
      { key: "postgres", type: "TOOL", name: "Postgres" },
      { key: "acme", type: "ORG", name: "Acme Corp", properties: { founded: 1999 } },
    ],
    [
      {
        key: "a_b",
        from: "alice",
        rel: "REPORTS_TO",
        to: "bob",
        fact: "Alice reports to Bob",
        weight: 0.8,
        sources: [memories[0]!],
      },
      {
        key: "b_c",
        from: "bob",
        rel: "REPORTS_TO",
        to: "carol",
        fact: "Bob reports to Carol",
        weight: 0.7,
        sources: [memories[1]!],
      },
      {
        key: "a_berlin",
        from: "alice",
        rel: "LIVES_IN",
        to: "berlin",
        fact: "Alice lives in Berlin",
        validAt: "2023-06-01T00:00:00Z",
        sources: [memories[2]!],
      },
      {
        key: "a_paris",
        from: "alice",
        rel: "LIVES_IN",
        to: "paris",
        fact: "Alice lived in Paris",
        validAt: "2020-01-01T00:00:00Z",
        invalidAt: "2023-06-01T00:00:00Z",
        expiredReason: "superseded",
        sources: [memories[5]!],
      },
      {
        key: "b_pg",
        from: "bob",
        rel: "USES",
        to: "postgres",
        fact: "Bob uses Postgres",
        weight: 0.9,
        sources: [memories[3]!],
        properties: { since: 2019 },
      },
      {
        key: "c_acme",
        from: "carol",
        rel: "WORKS_AT",
        to: "acme",
        fact: "Carol works at Acme Corp",
        sources: [memories[4]!],
      },
    ],
  );
  return { ...graph, memories };
}
