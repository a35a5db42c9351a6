// ASK offline latency (on demand, not part of `bun test`):
// `node_modules/.bin/bun run bench/ask.ts [--people=5000] [--questions=300]`.
// One agent's org chart on a throwaway database: `people` memories stored through HTTP, and a graph
// of people (REPORTS_TO a manager, LIVES_IN one of 50 cities, USES one of 30 tools) plus one hub
// (everyone WORKS_AT Acme). Then p50/p95/p99 of pinned ASK over loopback HTTP per question shape,
// at concurrency 1 and 8, and a check that each answer is the expected one. Then the AUTO rule
// check: for relation questions, how often the top result is the memory that states the answer,
// with AUTO (whose entity rule routes them to ASK) against pinned LEXICAL and GRAPH.
import postgres from "postgres";
import { withTenant } from "../src/data/with-tenant";
import { newId } from "../src/lib/ids";
import { normalizeName } from "../src/domain/graph/normalize";
import { batchShape, startBenchApp, type BenchApp } from "./lib/bench-app";
import { loop, type Latency } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const PEOPLE = Number(args.get("people") ?? 5000);
const QUESTIONS = Number(args.get("questions") ?? 300);
const AGENT = "bench-ask";
const CITIES = 50;
const TOOLS = 30;

const person = (i: number) => `Person ${i}`;
const manager = (i: number) => Math.floor(i / 10);
const city = (i: number) => `City ${i % CITIES}`;
const tool = (i: number) => `Tool ${i % TOOLS}`;

async function seed(app: BenchApp): Promise<string[]> {
  const { field, max } = await batchShape(app);
  const memoryIds: string[] = [];
  for (let start = 0; start < PEOPLE; start += max) {
    const memories = Array.from({ length: Math.min(max, PEOPLE - start) }, (_, k) => {
      const i = start + k;
      return {
        agent_id: AGENT,
        content: `${person(i)} reports to ${person(manager(i))}, lives in ${city(i)}, works at Acme and uses ${tool(i)}.`,
      };
    });
    const res = await app.call("POST", "/v1/memories/batch", { [field]: memories });
    if (res.status !== 201)
      throw new Error(
        `batch store failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    memoryIds.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
  }
  const memos: Array<{ id: string; type: string; name: string }> = [];
  const add = (type: string, name: string) => {
    const id = newId("memo");
    memos.push({ id, type, name });
    return id;
  };
  const people = Array.from({ length: PEOPLE }, (_, i) => add("PERSON", person(i)));
  const cities = Array.from({ length: CITIES }, (_, i) => add("PLACE", `City ${i}`));
  const tools = Array.from({ length: TOOLS }, (_, i) => add("TOOL", `Tool ${i}`));
  const acme = add("ORG", "Acme");
  const edges: Array<{
    id: string;
    src: string;
    dst: string;
    relation: string;
    fact: string;
    memory: string;
  }> = [];
  for (let i = 0; i < PEOPLE; i++) {
    const memory = memoryIds[i]!;
    const edge = (dst: string, relation: string, fact: string) =>
      edges.push({ id: newId("edge"), src: people[i]!, dst, relation, fact, memory });
    if (i > 0)
      edge(people[manager(i)]!, "REPORTS_TO", `${person(i)} reports to ${person(manager(i))}`);
    edge(cities[i % CITIES]!, "LIVES_IN", `${person(i)} lives in ${city(i)}`);
    edge(tools[i % TOOLS]!, "USES", `${person(i)} uses ${tool(i)}`);
    edge(acme, "WORKS_AT", `${person(i)} works at Acme`);
  }
  // Bulk rows for a benchmark fixture (the same tables distill writes), in the tenant's
  // transaction.
  await withTenant(app.deps.db, app.orgId, async (tx) => {
    for (let s = 0; s < memos.length; s += 5000) {
      const part = memos.slice(s, s + 5000);
      await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, origin, mention_count)
        SELECT ${app.orgId}, id, ${AGENT}, t, n, nn, 'extracted', 1
        FROM unnest(${part.map((m) => m.id)}::text[], ${part.map((m) => m.type)}::text[], ${part.map((m) => m.name)}::text[], ${part.map((m) => normalizeName(m.name))}::text[]) AS x(id, t, n, nn)`;
    }
    for (let s = 0; s < edges.length; s += 5000) {
      const part = edges.slice(s, s + 5000);
      await tx`INSERT INTO edges (org_id, edge_id, agent_id, src_memo_id, dst_memo_id, relation, fact, origin, confidence, weight)
        SELECT ${app.orgId}, id, ${AGENT}, src, dst, rel, fact, 'extracted', 0.9, 0.6
        FROM unnest(${part.map((e) => e.id)}::text[], ${part.map((e) => e.src)}::text[], ${part.map((e) => e.dst)}::text[], ${part.map((e) => e.relation)}::text[], ${part.map((e) => e.fact)}::text[]) AS x(id, src, dst, rel, fact)`;
      await tx`INSERT INTO edge_sources (org_id, edge_id, memory_id, memory_version, extractor)
        SELECT ${app.orgId}, id, m, 1, 'bench' FROM unnest(${part.map((e) => e.id)}::text[], ${part.map((e) => e.memory)}::text[]) AS x(id, m)`;
    }
  });
  // As the tables' owner: under the app role ANALYZE skips them, and with no statistics the planner
  // takes the name lookup for a one-row scan and nests loops over the whole graph.
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  await owner`ANALYZE memos, memo_aliases, edges, edge_sources, memories`;
  await owner.end();
  console.log(
    `seeded ${PEOPLE} memories, ${memos.length} memos, ${edges.length} edges (Acme: ${PEOPLE} incoming WORKS_AT)`,
  );
  return memoryIds;
}

/**
 * Share of relation questions whose top result is the memory stating the answer, and the strategies
 * AUTO chose.
 */
async function topOneRate(
  app: BenchApp,
  memoryIds: string[],
  strategy: "AUTO" | "LEXICAL" | "GRAPH",
  count: number,
): Promise<{ rate: number; chosen: string }> {
  let hits = 0;
  const chosen = new Map<string, number>();
  for (let q = 0; q < count; q++) {
    const i = 1 + ((q * 7919) % (PEOPLE - 1));
    const query = q % 2 === 0 ? `Who is ${person(i)}'s manager?` : `Where does ${person(i)} live?`;
    const res = await app.call("POST", "/v1/memories/recall", { agent_id: AGENT, query, strategy });
    chosen.set(res.body.strategy, (chosen.get(res.body.strategy) ?? 0) + 1);
    if (res.body.results?.[0]?.memory_id === memoryIds[i]) hits++;
  }
  return { rate: hits / count, chosen: [...chosen].map(([name, n]) => `${name} ${n}`).join(", ") };
}

type Shape = {
  name: string;
  question: (i: number) => string;
  expect: (i: number) => string | null;
};

const SHAPES: Shape[] = [
  {
    name: "who is X's manager",
    question: (i) => `Who is ${person(1 + ((i * 7919) % (PEOPLE - 1)))}'s manager?`,
    expect: (i) => `${person(manager(1 + ((i * 7919) % (PEOPLE - 1))))} — `,
  },
  {
    name: "where does X live",
    question: (i) => `Where does ${person((i * 104729) % PEOPLE)} live?`,
    expect: (i) => `${city((i * 104729) % PEOPLE)} — `,
  },
  { name: "who works at Acme (hub)", question: () => "Who works at Acme?", expect: () => null },
  {
    name: "unknown name (I don't know)",
    question: (i) => `Who is Nobody ${i}'s manager?`,
    expect: () => "I don't know",
  },
];

async function measure(
  app: BenchApp,
  shape: Shape,
  concurrency: number,
): Promise<Latency & { wrong: number }> {
  let wrong = 0;
  const latency = await loop(QUESTIONS, concurrency, 120, async (i) => {
    const res = await app.call("POST", "/v1/memories/recall", {
      agent_id: AGENT,
      query: shape.question(i),
      strategy: "ASK",
    });
    if (res.status !== 200) return false;
    const want = shape.expect(i);
    if (want !== null && !String(res.body.graph?.answer?.text).startsWith(want)) wrong++;
    return true;
  });
  return { ...latency, wrong };
}

const app = await startBenchApp("ask");
try {
  const memoryIds = await seed(app);
  const rows: string[] = [];
  for (const shape of SHAPES) {
    await measure(app, shape, 1); // warm-up
    for (const concurrency of [1, 8]) {
      const r = await measure(app, shape, concurrency);
      rows.push(
        `| ${shape.name} | ${concurrency} | ${r.count} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.wrong} |`,
      );
    }
  }
  console.log(
    `\nASK offline, ${PEOPLE} people, ${QUESTIONS} questions per row (loopback HTTP, ms)\n`,
  );
  console.log(
    "| question | concurrency | answered | per s | p50 | p95 | p99 | errors | wrong answers |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log(
    `\nAUTO rule check: top-1 result is the memory stating the answer (${Math.min(QUESTIONS, 200)} relation questions)\n`,
  );
  console.log("| requested | top-1 hit rate | strategies that ran |");
  console.log("|---|---|---|");
  for (const strategy of ["AUTO", "LEXICAL", "GRAPH"] as const) {
    const r = await topOneRate(app, memoryIds, strategy, Math.min(QUESTIONS, 200));
    console.log(`| ${strategy} | ${(r.rate * 100).toFixed(1)} % | ${r.chosen} |`);
  }
} finally {
  await app.stop();
}
