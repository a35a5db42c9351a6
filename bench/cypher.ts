// CYPHER latency (on demand, not part of `bun test`):
// `node_modules/.bin/bun run bench/cypher.ts [--people=40000] [--queries=200] [--only=either]`.
// One agent on a throwaway database: `people` memories stored through HTTP and the graph of
// bench/lib/graph-corpus.ts seeded beside them (40k people: 40,800 memos, ~200k edges; the hub
// "Acme" holds a WORKS_AT edge from every other person), then ANALYZE as the owner. Then
// p50/p95/p99 of pinned CYPHER recalls over loopback HTTP at c=1, per pattern shape, each anchored
// on a different person.
import postgres from "postgres";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { graphWorld, HUB, personMemory } from "./lib/graph-corpus";
import { seedWorldGraph } from "./lib/graph-seed";
import { loop, type Latency } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string | undefined]),
);
const PEOPLE = Number(args.get("people") ?? 40_000);
const QUERIES = Number(args.get("queries") ?? 200);
const ONLY = args.get("only");
const AGENT = "cypher-bench";

async function storeInOrder(app: BenchApp, contents: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < contents.length; at += 500) {
    const res = await app.call("POST", "/v1/memories/batch", {
      memories: contents.slice(at, at + 500).map((content) => ({ agent_id: AGENT, content })),
    });
    if (res.status !== 201)
      throw new Error(
        `batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    ids.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
  }
  return ids;
}

/**
 * The measured patterns (`--only` keeps those whose name contains it); `$name` is a different
 * person on every request.
 */
const CASES: Array<[string, string]> = [
  [
    "1 hop: a person's employer",
    "MATCH (p:PERSON {name: $name})-[:WORKS_AT]->(o:ORG) RETURN o.name AS org",
  ],
  [
    "2 hops: where the people they know live",
    "MATCH (p:PERSON {name: $name})-[:KNOWS]->(f:PERSON)-[:LIVES_IN]->(c:PLACE) RETURN f.name AS friend, c.name AS city",
  ],
  [
    "3 hops: friend → employer → its city",
    "MATCH (p:PERSON {name: $name})-[:KNOWS]->(f)-[:WORKS_AT]->(o)-[:LOCATED_IN]->(c) RETURN f.name, o.name, c.name",
  ],
  [
    "1 hop, either direction (KNOWS)",
    "MATCH (p:PERSON {name: $name})-[:KNOWS]-(x) RETURN x.name ORDER BY x.name",
  ],
  [
    "hub: count the hub's employees",
    "MATCH (p:PERSON)-[:WORKS_AT]->(o:ORG {name: $hub}) RETURN count(p) AS employees",
  ],
  [
    "hub: 20 employees by name",
    "MATCH (o:ORG {name: $hub})<-[:WORKS_AT]-(p:PERSON) RETURN p.name AS name ORDER BY name LIMIT 20",
  ],
  [
    "hub in the middle: colleagues of a person (2 hops)",
    "MATCH (p:PERSON {name: $name})-[:WORKS_AT]->(o)<-[:WORKS_AT]-(c) RETURN c.name LIMIT 20",
  ],
  [
    "variable length: KNOWS*1..3",
    "MATCH (p:PERSON {name: $name})-[:KNOWS*1..3]->(x) RETURN DISTINCT x.name AS name LIMIT 50",
  ],
  [
    "variable length, untyped, either direction *1..2",
    "MATCH (p:PERSON {name: $name})-[r*1..2]-(x) RETURN x.name AS name, size(r) AS hops LIMIT 50",
  ],
  [
    "path: shortest KNOWS chain ≤ 3 to a second person",
    "MATCH path = (a:PERSON {name: $name})-[:KNOWS*1..3]->(b:PERSON {name: $other}) RETURN length(path) AS hops ORDER BY hops LIMIT 1",
  ],
];

const app = await startBenchApp("cypher");
try {
  const world = graphWorld(PEOPLE);
  console.error(`storing ${PEOPLE} memories …`);
  const t0 = performance.now();
  const ids = await storeInOrder(
    app,
    world.people.map((_, i) => personMemory(world, i)),
  );
  console.error(`stored in ${((performance.now() - t0) / 1000).toFixed(0)} s; seeding the graph …`);
  const graph = await seedWorldGraph(app.deps.db, app.orgId, AGENT, world, ids);
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  await owner`ANALYZE`;
  await owner.end();

  const person = (i: number) => world.people[(i * 7919) % PEOPLE]!;
  const rows: Array<{ name: string; latency: Latency; maxRows: number }> = [];
  const cases = CASES.filter(([name]) => !ONLY || name.includes(ONLY));
  for (const [name, query] of cases) {
    console.error(name);
    const run = async (i: number) => {
      const res = await app.call("POST", "/v1/memories/recall", {
        agent_id: AGENT,
        query,
        strategy: "CYPHER",
        top_k: 10,
        params: { name: person(i), other: person(i + 1), hub: HUB },
      });
      if (res.status !== 200)
        console.error(`${name} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.status === 200 ? res.body.graph.table.rows.length : -1;
    };
    for (let i = 0; i < 5; i++) await run(i); // warm-up
    let maxRows = 0;
    const latency = await loop(QUERIES, 1, 90, async (i) => {
      const n = await run(i + 5);
      maxRows = Math.max(maxRows, n);
      return n >= 0;
    });
    rows.push({ name, latency, maxRows });
  }
  console.log(
    [
      `CYPHER at ${PEOPLE.toLocaleString("en-US")} memories, ${graph.memos.toLocaleString("en-US")} memos, ${graph.edges.toLocaleString("en-US")} edges, hub "${HUB}" with ${graph.hubEdges.toLocaleString("en-US")} edges (HTTP, c=1, top_k 10):`,
      "",
      "| pattern | query | n | p50 ms | p95 ms | p99 ms | errors | max rows |",
      "|---|---|---|---|---|---|---|---|",
      ...rows.map(
        (r, i) =>
          `| ${r.name} | \`${cases[i]![1]}\` | ${r.latency.count} | ${r.latency.p50.toFixed(1)} | ${r.latency.p95.toFixed(1)} | ${r.latency.p99.toFixed(1)} | ${r.latency.errors} | ${r.maxRows} |`,
      ),
    ].join("\n"),
  );
} finally {
  await app.stop();
}
process.exit(0);
