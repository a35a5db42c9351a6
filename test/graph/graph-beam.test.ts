// GRAPH's walk through a hub is bounded by its beam, not by the hub (issue 22 item 5), in both
// database modes: Alice works at Acme Robotics, which 300 people work at, each with facts of their
// own. The walk keeps at most `beam` partial paths per step, whatever the hub (an invariant on its
// rows, not a timing), and ranking by the question's words keeps the headquarters fact in a beam of
// 4 that strength alone (heavy employee edges) would fill; over HTTP GRAPH cites that fact for the
// issue's question (main before the beam did not: its walk kept the 200 strongest paths, all
// through the employees, before ranking by words).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findBeamPaths, type BeamSearch } from "../../src/data/queries/graph/beam";
import { CURRENT } from "../../src/data/queries/graph/read";
import { withTenant } from "../../src/data/with-tenant";
import { show, testApp, type Tenant, type TestApp } from "../harness/app";
import { embeddedApp } from "../harness/embedded-app";
import { storeAll } from "./helpers";
import { seedGraph, type SeedEdge, type SeedMemo } from "./seed-graph";

const AGENT = "graph-beam";
const QUESTION = "In which city is Alice Novak's employer headquartered?";
const EMPLOYEES = 300;
const HOPS = 3;

type Mode = {
  name: string;
  open(): Promise<{ app: TestApp; tenant: Tenant; close(): Promise<void> }>;
};
const modes: Mode[] = [
  {
    name: "PostgreSQL",
    async open() {
      const app = await testApp();
      return { app, tenant: await app.tenant("graph-beam"), close: () => app.close() };
    },
  },
  {
    name: "PGlite (embedded)",
    async open() {
      const e = await embeddedApp("graph-beam");
      return { app: e.app, tenant: await e.tenant("graph-beam"), close: () => e.close() };
    },
  },
];

/** Alice → Acme Robotics (EMPLOYEES heavy in-edges, each with 2 more facts) → Rotterdam. */
function hubGraph(works: string, hq: string, staff: string) {
  const memos: SeedMemo[] = [
    { key: "alice", type: "PERSON", name: "Alice Novak" },
    { key: "acme", type: "ORG", name: "Acme Robotics" },
    { key: "rotterdam", type: "PLACE", name: "Rotterdam" },
    { key: "leiden", type: "PLACE", name: "Leiden" },
    { key: "postgres", type: "TOOL", name: "Postgres" },
  ];
  const edges: SeedEdge[] = [
    { key: "works", from: "alice", rel: "WORKS_AT", to: "acme", weight: 0.5, sources: [works] },
    {
      key: "hq",
      from: "acme",
      rel: "HEADQUARTERED_IN",
      to: "rotterdam",
      weight: 0.2,
      sources: [hq],
    },
  ];
  edges[0]!.fact = "Alice Novak works at Acme Robotics";
  edges[1]!.fact = "Acme Robotics is headquartered in Rotterdam";
  for (let i = 0; i < EMPLOYEES; i++) {
    memos.push({ key: `p${i}`, type: "PERSON", name: `Person ${i}` });
    const own = (rel: string, to: string, fact: string): SeedEdge => ({
      key: `${rel}${i}`,
      from: `p${i}`,
      rel,
      to,
      fact,
      weight: 0.9,
      sources: [staff],
    });
    edges.push(own("WORKS_AT", "acme", `Person ${i} works at Acme Robotics`));
    edges.push(own("LIVES_IN", "leiden", `Person ${i} lives in Leiden`));
    edges.push(own("USES", "postgres", `Person ${i} uses Postgres`));
  }
  return { memos, edges };
}

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let close: () => Promise<void>;
    let alice: string;
    let hqEdge: string;
    let hqMemory: string;

    beforeAll(async () => {
      ({ app, tenant, close } = await mode.open());
      const [works, hq, staff] = await storeAll(app, tenant, AGENT, [
        "Alice Novak works at Acme Robotics.",
        "Acme Robotics is headquartered in Rotterdam.",
        "Many people work at Acme Robotics, live in Leiden and use Postgres.",
      ]);
      hqMemory = hq!;
      const { memos, edges } = hubGraph(works!, hq!, staff!);
      const seeded = await seedGraph(app.deps.db, tenant.orgId, AGENT, memos, edges);
      alice = seeded.memo.alice!;
      hqEdge = seeded.edge.hq!;
    }, 120_000);
    afterAll(() => close());

    const walk = (beam: number) =>
      withTenant(app.deps.db, tenant.orgId, (tx) =>
        findBeamPaths(tx, {
          orgId: tenant.orgId,
          agentId: AGENT,
          question: QUESTION,
          seeds: [{ memo_id: alice, score: 1 }],
          view: CURRENT,
          maxHops: HOPS,
          fanout: 20,
          beam,
          hopDecay: 0.7,
          limit: 100_000,
        } satisfies BeamSearch),
      );

    test("the walk keeps at most `beam` paths per step; unpruned it grows", async () => {
      const unpruned = await walk(100_000);
      const pruned = await walk(4);
      // A step either takes an edge or jumps to a namesake, so three hops are at most six steps.
      expect(pruned.length).toBeLessThanOrEqual(4 * 2 * HOPS);
      for (let hop = 1; hop <= HOPS; hop++)
        expect(pruned.filter((p) => p.hops === hop).length).toBeLessThanOrEqual(4);
      // Unpruned: Alice → Acme, its 20 heaviest employees and Rotterdam, each employee's 2 facts
      // (62).
      expect(unpruned.length).toBeGreaterThan(2 * 4 * 2 * HOPS);
    });

    test("the question's words keep the headquarters path in a beam of 4", async () => {
      const best = (await walk(4))[0]!;
      expect(best.edge_ids.at(-1)).toBe(hqEdge);
      expect(best.hops).toBe(2);
      expect(best.held).toContain("headquart");
    });

    test("GRAPH over HTTP cites the headquarters for the issue's question", async () => {
      const res = await app.request("POST", "/v1/memories/recall", {
        key: tenant.key,
        body: { agent_id: AGENT, query: QUESTION, strategy: "GRAPH", top_k: 5 },
      });
      expect(res.status, show(res)).toBe(200);
      const hit = res.body.results.find((r: { memory_id: string }) => r.memory_id === hqMemory);
      expect(hit, show(res)).toBeDefined();
      expect(hit.graph.path.hops).toBe(2);
      expect(res.body.results[0].graph.path.edge_ids, show(res)).toContain(hqEdge);
    });
  });
}
