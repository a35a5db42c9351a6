// Knowledge graph benchmarks (on demand): `node_modules/.bin/bun run bench/graph.ts [--quick]
// [--people=10000] [--distill=2000]`.
// 1. Distill throughput with the local extractor: memories stored through the batch route, then
//    POST /v1/distill (1,000 ids per job) run by the real worker (BullMQ on Valkey, in this
//    process), timed from the first POST until every job succeeded; plus the extractor alone,
//    without the database.
// 2. GRAPH / TRIPLET / TRACE and GET /v1/graph/data p50/p95 over loopback HTTP, one request at a
//    time, in one agent holding `people` memories and a graph of ~5 edges per person (10k people:
//    10,800 memos, ~50k edges) whose hub "Acme" has an edge from every other person (5,000 at 10k).
import postgres from "postgres";
import { createLocalExtractor } from "../src/domain/forge/extract/local";
import { startWorker } from "../src/queue/worker";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { graphWorld, HUB, personMemory } from "./lib/graph-corpus";
import { seedWorldGraph } from "./lib/graph-seed";
import { loop, type Latency } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string | undefined]),
);
const quick = args.has("quick");
const PEOPLE = Number(args.get("people") ?? (quick ? 2000 : 10_000));
const DISTILL = Number(args.get("distill") ?? (quick ? 500 : 2000));
const QUERIES = quick ? 60 : 200;
const fmt = (n: number) =>
  Number.isNaN(n) ? "—" : n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1);

async function storeInOrder(app: BenchApp, agent: string, contents: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < contents.length; at += 500) {
    const res = await app.call("POST", "/v1/memories/batch", {
      memories: contents.slice(at, at + 500).map((content) => ({ agent_id: agent, content })),
    });
    if (res.status !== 201)
      throw new Error(
        `batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    ids.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
  }
  return ids;
}

async function distillThroughput(app: BenchApp) {
  const world = graphWorld(Math.max(DISTILL, 100), 5);
  const contents = Array.from({ length: DISTILL }, (_, i) => personMemory(world, i));
  const ids = await storeInOrder(app, "distill-bench", contents);
  const worker = await startWorker(app.deps);
  const started = performance.now();
  const jobs: string[] = [];
  for (let at = 0; at < ids.length; at += 1000) {
    const res = await app.call("POST", "/v1/distill", {
      agent_id: "distill-bench",
      memory_ids: ids.slice(at, at + 1000),
    });
    if (res.status !== 202)
      throw new Error(`POST /v1/distill answered ${res.status}: ${JSON.stringify(res.body)}`);
    jobs.push(res.body.job_id);
  }
  const results: any[] = [];
  for (const job of jobs) {
    for (;;) {
      const res = await app.call("GET", `/v1/distill/${job}`);
      if (["succeeded", "failed", "rejected"].includes(res.body.state)) {
        results.push(res.body);
        break;
      }
      await Bun.sleep(100);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  const failed = results.filter((r) => r.state !== "succeeded").length;
  const sum = (k: string) => results.reduce((n, r) => n + (r.counts?.[k] ?? 0), 0);
  const extractor = createLocalExtractor();
  const t0 = performance.now();
  await extractor.extract(
    contents.map((content, i) => ({
      memoryId: `m${i}`,
      version: 1,
      agentId: "x",
      content,
      metadata: {},
      referenceTime: new Date(),
    })),
    { orgId: "bench" },
  );
  const extractSeconds = (performance.now() - t0) / 1000;
  return {
    memories: DISTILL,
    seconds,
    perSecond: DISTILL / seconds,
    extractPerSecond: DISTILL / extractSeconds,
    failed,
    memos: sum("memos_created"),
    edges: sum("edges_created"),
    reinforced: sum("edges_reinforced"),
  };
}

type Row = { name: string; latency: Latency; sample: number };

async function strategyLatencies(app: BenchApp) {
  const world = graphWorld(PEOPLE);
  const agent = "graph-bench";
  console.error(`storing ${PEOPLE} memories …`);
  const ids = await storeInOrder(
    app,
    agent,
    world.people.map((_, i) => personMemory(world, i)),
  );
  console.error("seeding the graph …");
  const graph = await seedWorldGraph(app.deps.db, app.orgId, agent, world, ids);
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  await owner`ANALYZE`;
  await owner.end();

  const person = (i: number) => world.people[(i * 7919) % PEOPLE]!;
  const recall =
    (strategy: string, query: (i: number) => string, extra: Record<string, unknown> = {}) =>
    async (i: number) => {
      const res = await app.call("POST", "/v1/memories/recall", {
        agent_id: agent,
        query: query(i),
        strategy,
        top_k: 10,
        ...extra,
      });
      if (res.status !== 200)
        console.error(
          `${strategy} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`,
        );
      return res.status === 200 ? (res.body.results?.length ?? 0) : -1;
    };
  const data = (path: (i: number) => string) => async (i: number) => {
    const res = await app.call("GET", path(i));
    if (res.status !== 200)
      console.error(`graph/data answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return res.status === 200 ? res.body.nodes.length : -1;
  };
  const cases: Array<[string, (i: number) => Promise<number>]> = [
    [
      "GRAPH, a person (2 hops through the hub)",
      recall("GRAPH", (i) => `Which city hosts ${person(i)}'s employer?`),
    ],
    ["GRAPH, the hub itself", recall("GRAPH", () => `Who works at ${HUB}?`)],
    ["TRIPLET, a person", recall("TRIPLET", (i) => `Where does ${person(i)} live?`)],
    ["TRIPLET, the hub", recall("TRIPLET", () => `${HUB} employees`)],
    ["TRACE, one person's timeline", recall("TRACE", (i) => `history of ${person(i)}`)],
    ["TRACE, the hub's timeline", recall("TRACE", () => `history of ${HUB}`)],
    [
      "TRACE, paths between two people",
      recall("TRACE", (i) => `How is ${person(i)} connected to ${person(i + 1)}?`),
    ],
    ["graph/data, whole agent (capped)", data(() => `/v1/graph/data?agent_id=${agent}`)],
    [
      "graph/data, around the hub, depth 2",
      data(() => `/v1/graph/data?agent_id=${agent}&around=${HUB}&depth=2`),
    ],
    [
      "graph/data, around a person, depth 2",
      data(
        (i) => `/v1/graph/data?agent_id=${agent}&around=${encodeURIComponent(person(i))}&depth=2`,
      ),
    ],
  ];
  const rows: Row[] = [];
  for (const [name, fn] of cases) {
    console.error(name);
    for (let i = 0; i < 5; i++) await fn(i); // warm-up
    let sample = 0;
    const latency = await loop(QUERIES, 1, 60, async (i) => {
      const n = await fn(i + 5);
      sample = Math.max(sample, n);
      return n >= 0;
    });
    rows.push({ name, latency, sample });
  }
  return { graph, rows };
}

const app = await startBenchApp("graph", { DISTILL_ENABLED: true });
try {
  console.error(`distill throughput over ${DISTILL} memories …`);
  const d = await distillThroughput(app);
  const s = await strategyLatencies(app);
  const lines = [
    `Distill (local extractor, DISTILL_BATCH_SIZE ${app.deps.config.DISTILL_BATCH_SIZE}, worker in process): ${d.memories} memories in ${d.seconds.toFixed(1)} s = **${fmt(d.perSecond)} memories/s** end to end` +
      ` (${d.memos} memos, ${d.edges} edges created, ${d.reinforced} reinforced; ${d.failed} jobs failed); the extractor alone: ${fmt(d.extractPerSecond)} memories/s`,
    "",
    `Graph recall at ${PEOPLE.toLocaleString("en-US")} memories, ${s.graph.memos.toLocaleString("en-US")} memos, ${s.graph.edges.toLocaleString("en-US")} edges, hub "${HUB}" with ${s.graph.hubEdges.toLocaleString("en-US")} edges (HTTP, c=1, top_k 10):`,
    "",
    "| request | n | p50 ms | p95 ms | p99 ms | req/s | errors | max results/nodes |",
    "|---|---|---|---|---|---|---|---|",
    ...s.rows.map(
      (r) =>
        `| ${r.name} | ${r.latency.count} | ${r.latency.p50.toFixed(1)} | ${r.latency.p95.toFixed(1)} | ${r.latency.p99.toFixed(1)} | ${fmt(r.latency.perSecond)} | ${r.latency.errors} | ${r.sample} |`,
    ),
  ];
  console.log(lines.join("\n"));
} finally {
  await app.stop();
}
process.exit(0);
