// VECTOR self-recall (issue 22 item 4): does a memory come back for its own text, at any agent
// size? `node_modules/.bin/bun run bench/vector-self-recall.ts [--sizes=1000,10000,100000]
// [--others=3] [--queries=40]` Per size: one agent of that many short turns among `others` agents
// of as many, loaded through the batch route; then `queries` memories of the agent are recalled by
// their own content (VECTOR, top 10) over HTTP, and the share found in the top 10 is printed with
// the latency. `--keep` keeps each size's database and prints its name; `--reuse=<db>` (one size)
// measures a kept one again without loading it (a 100k agent takes long to load on a busy machine).
import { withTenant } from "../src/data/with-tenant";
import { startBenchApp } from "./lib/bench-app";
import { rng } from "./lib/corpus";
import { emptyVectorBacklog } from "./lib/load-corpus";
import { fmt } from "./lib/format";
import { loop } from "./lib/stats";
import { shortTurns } from "./lib/short-turns";
import { locomoTurns } from "./lib/locomo-turns";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const sizes = (args.get("sizes") ?? "1000,10000").split(",").map(Number);
const others = Number(args.get("others") ?? 3);
const queryCount = Number(args.get("queries") ?? 40);
/**
 * --source=locomo: the target agent holds LoCoMo's real turns (the first `size`, repeated past
 * 2,760).
 */
const source = args.get("source") ?? "synthetic";
const reuse = args.get("reuse");
if (reuse !== undefined && sizes.length !== 1) throw new Error("--reuse measures one size");
const turnsOf = (size: number): string[] => {
  if (source !== "locomo") return shortTurns(size, 7);
  const real = locomoTurns();
  return Array.from({ length: size }, (_, i) =>
    i < real.length ? real[i]! : `${real[i % real.length]} (${Math.floor(i / real.length)})`,
  );
};

async function store(
  app: Awaited<ReturnType<typeof startBenchApp>>,
  agent: string,
  contents: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < contents.length; i += 500) {
    const memories = contents.slice(i, i + 500).map((content) => ({ agent_id: agent, content }));
    const res = await app.call("POST", "/v1/memories/batch", { memories });
    if (res.status >= 300) throw new Error(`batch store answered ${res.status}`);
    ids.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
  }
  return ids;
}

/** The target's ids in storage order, which is id order (src/lib/ids.ts), as `store` returned them. */
async function storedIds(app: Awaited<ReturnType<typeof startBenchApp>>): Promise<string[]> {
  const rows = await withTenant(
    app.deps.db,
    app.orgId,
    async (tx) =>
      await tx<{ memory_id: string }[]>`
      SELECT memory_id FROM memories WHERE agent_id = 'target' AND version = 1 ORDER BY memory_id`,
  );
  return rows.map((r) => r.memory_id);
}

console.log(
  "| agent size | other agents | found in top 10 | p50 ms | p95 ms |\n|---:|---:|---:|---:|---:|",
);
for (const size of sizes) {
  const app = await startBenchApp(`self${size}`, {}, { reuse, keep: args.has("keep") });
  try {
    const contents = turnsOf(size);
    let ids: string[];
    if (reuse) ids = await storedIds(app);
    else {
      for (let o = 0; o < others; o++) await store(app, `other-${o}`, shortTurns(size, 100 + o));
      ids = await store(app, "target", contents);
      await emptyVectorBacklog(app);
      await app.analyze();
    }
    if (args.has("keep")) console.error(`kept the database ${app.databaseName}`);
    const random = rng(11);
    const picked = Array.from({ length: queryCount }, () => Math.floor(random() * size));
    let found = 0;
    const latency = await loop(picked.length, 1, 600, async (i) => {
      const k = picked[i]!;
      const res = await app.call("POST", "/v1/memories/recall", {
        agent_id: "target",
        query: contents[k],
        top_k: 10,
        strategy: "VECTOR",
      });
      if (res.status !== 200) return false;
      if (res.body.results.some((m: { memory_id: string }) => m.memory_id === ids[k])) found++;
      return true;
    });
    console.log(
      `| ${size} | ${others} | ${found}/${queryCount} | ${fmt(latency.p50)} | ${fmt(latency.p95)} |`,
    );
  } finally {
    await app.stop();
  }
}
process.exit(0);
