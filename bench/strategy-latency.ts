// Per-strategy recall latency at 10k memories in one agent (issue 22 item 5), over loopback HTTP at
// c=1, the strategies interleaved (one query of each in turn, so load drifts hit all alike):
// `node_modules/.bin/bun run bench/strategy-latency.ts [--rounds=100] [--no-analyze] [--keep |
// --reuse=<db>]` (also in `npm run bench`). --keep keeps the loaded database and prints its name;
// --reuse measures it again. The agent holds 8,500 people's memories (event times over 2019–2025)
// and 1,500 code functions; a graph of 10,000 people (~50k edges) whose hub "Acme" has an edge from
// every other person (5,000). --no-analyze measures right after the bulk load, before any
// statistics exist (no autovacuum here; PGlite has none). Beside latency, each strategy's mean CPU
// per recall (bench/lib/cpu-meter.ts): this process (app and client) and the database's backends.
// CPU does not grow with other load on the machine; latency does.
import postgres from "postgres";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { rng } from "./lib/corpus";
import { cpuMeter, type CpuReading } from "./lib/cpu-meter";
import { fmt } from "./lib/format";
import { graphWorld, HUB, personMemory } from "./lib/graph-corpus";
import { seedWorldGraph } from "./lib/graph-seed";
import { emptyVectorBacklog } from "./lib/load-corpus";
import { percentile } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string | undefined]),
);
const ROUNDS = Number(args.get("rounds") ?? 100);
const PEOPLE = 10_000;
const PERSON_MEMORIES = 8_500;
const FUNCTIONS = 1_500;
const AGENT = "latency-agent";

const VERBS = [
  "read",
  "parse",
  "load",
  "write",
  "merge",
  "sort",
  "split",
  "format",
  "validate",
  "download",
];
const NOUNS = [
  "csv_file",
  "json_config",
  "url",
  "timestamp",
  "matrix",
  "user_record",
  "log_line",
  "image",
  "zip_archive",
  "query_string",
];

/** A small Python function (CoSQA-like), named verb_noun, with a docstring. */
function codeMemory(i: number): string {
  const verb = VERBS[i % VERBS.length]!;
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
  return `def ${verb}_${noun}_${i}(path, options=None):\n    """${verb} a ${noun.replace("_", " ")} and return it."""\n    with open(path) as handle:\n        return ${verb}(handle.read(), options)`;
}

async function store(app: BenchApp, items: Array<Record<string, unknown>>): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < items.length; at += 500) {
    const res = await app.call("POST", "/v1/memories/batch", {
      memories: items.slice(at, at + 500).map((m) => ({ agent_id: AGENT, ...m })),
    });
    if (res.status !== 201)
      throw new Error(
        `batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    ids.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
  }
  return ids;
}

async function load(app: BenchApp, world: ReturnType<typeof graphWorld>) {
  const day = (i: number) => new Date(Date.UTC(2019, 0, 1) + (i % 2555) * 86_400_000).toISOString();
  console.error(`storing ${PERSON_MEMORIES + FUNCTIONS} memories …`);
  const ids = await store(
    app,
    Array.from({ length: PERSON_MEMORIES }, (_, i) => ({
      content: personMemory(world, i),
      occurred_at: day(i),
    })),
  );
  await store(
    app,
    Array.from({ length: FUNCTIONS }, (_, i) => ({
      content: codeMemory(i),
      metadata: { kind: "code", language: "python" },
    })),
  );
  await emptyVectorBacklog(app);
  console.error("seeding the graph …");
  const graph = await seedWorldGraph(
    app.deps.db,
    app.orgId,
    AGENT,
    world,
    world.people.map((_, i) => ids[i % PERSON_MEMORIES]!),
  );
  if (!args.has("no-analyze")) {
    const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
    await owner`VACUUM (ANALYZE)`;
    await owner.end();
  }
  return graph;
}

const reuse = args.get("reuse");
const app = await startBenchApp("strategies", {}, { reuse, keep: args.has("keep") });
try {
  const world = graphWorld(PEOPLE);
  const graph = reuse ? { edges: NaN, hubEdges: NaN } : await load(app, world);
  if (args.has("keep")) console.error(`kept the database ${app.databaseName}`);

  const random = rng(23);
  const person = () => world.people[Math.floor(random() * PERSON_MEMORIES)]!;
  const temporal = [
    () => `What did ${person()} do in 2023?`,
    () => `How many times has ${person()} gone to the beach in 2023?`,
    () => "What happened before the trip?",
    () => `Who moved to ${world.cities[0]} since 1979?`,
    () => "What changed after transplantation?",
    () => `What did ${person()} say last month?`,
  ];
  const code = () =>
    `${VERBS[Math.floor(random() * VERBS.length)]} ${NOUNS[Math.floor(random() * NOUNS.length)]!.replace("_", " ")} in python`;
  const strategies: Array<[string, () => string]> = [
    ["AUTO", () => `Where does ${person()} live?`],
    ["LEXICAL", () => `Where does ${person()} live?`],
    ["VECTOR", () => `Where does ${person()} live?`],
    ["TEMPORAL", () => temporal[Math.floor(random() * temporal.length)]!()],
    ["CODE", code],
    ["GRAPH", () => `Which city hosts ${person()}'s employer?`],
    ["TRIPLET", () => `Where does ${person()} work?`],
    ["TRACE", () => `history of ${person()}`],
    ["ASK", () => `Where does ${person()} work?`],
  ];
  const times = new Map(strategies.map(([name]) => [name, [] as number[]]));
  const cpu = new Map(strategies.map(([name]) => [name, [] as CpuReading[]]));
  const failed = new Map(strategies.map(([name]) => [name, 0]));
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  const meter = await cpuMeter(owner);
  for (let round = -3; round < ROUNDS; round++) {
    // three warm-up rounds
    await meter.refresh();
    for (const [name, query] of strategies) {
      const sample = meter.start();
      const t0 = performance.now();
      const res = await app.call("POST", "/v1/memories/recall", {
        agent_id: AGENT,
        query: query(),
        strategy: name,
        top_k: 10,
      });
      const ms = performance.now() - t0;
      const spent = sample.stop();
      if (round < 0) continue;
      if (res.status === 200) {
        times.get(name)!.push(ms);
        cpu.get(name)!.push(spent);
      } else failed.set(name, failed.get(name)! + 1);
    }
  }
  await owner.end();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const shape = reuse ? "a reused database" : `${graph.edges} edges (hub: ${graph.hubEdges})`;
  console.log(
    `\n${PERSON_MEMORIES + FUNCTIONS} memories in one agent, ${shape}, ${args.has("no-analyze") ? "no ANALYZE after the load" : "after VACUUM ANALYZE"}, ${ROUNDS} queries per strategy, c=1\n`,
  );
  console.log(
    "| strategy | p50 ms | p95 ms | max ms | failed | CPU ms: app | CPU ms: database |\n" +
      "|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const [name] of strategies) {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    const used = cpu.get(name)!;
    const app = fmt(mean(used.map((c) => c.appMs)));
    const db = fmt(mean(used.map((c) => c.dbMs)));
    const latency = [50, 95].map((p) => fmt(percentile(sorted, p))).join(" | ");
    console.log(
      `| ${name} | ${latency} | ${fmt(sorted.at(-1))} | ${failed.get(name)} | ${app} | ${db} |`,
    );
  }
} finally {
  await app.stop();
}
process.exit(0);
