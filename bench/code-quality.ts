// CODE and LEXICAL on CoSQA with the functions marked as code (issue 22 item 5):
// `node_modules/.bin/bun run bench/code-quality.ts [--limit=100]`. Every function of
// ../shared/bench-data/cosqa is stored through the batch route with metadata {"language": "python"}
// in one agent; recall@10 and p50/p95 per strategy over `limit` queries spread evenly.
import { startBenchApp } from "./lib/bench-app";
import { emptyVectorBacklog } from "./lib/load-corpus";
import { fmt } from "./lib/format";
import { loadPublicSet } from "./lib/public-sets";
import { percentile } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const set = loadPublicSet("cosqa");
const limit = Math.min(Number(args.get("limit") ?? 100), set.questions.length);
const questions = Array.from(
  { length: limit },
  (_, i) => set.questions[Math.floor((i * set.questions.length) / limit)]!,
);
const app = await startBenchApp("codeq");
try {
  const unitOf = new Map<string, string>();
  for (let i = 0; i < set.units.length; i += 500) {
    const slice = set.units.slice(i, i + 500);
    const res = await app.call("POST", "/v1/memories/batch", {
      memories: slice.map((u) => ({
        agent_id: "cosqa",
        content: u.content,
        metadata: { language: "python" },
      })),
    });
    if (res.status !== 201) throw new Error(`batch: ${res.status}`);
    res.body.memories.forEach((m: { memory_id: string }, j: number) =>
      unitOf.set(m.memory_id, slice[j]!.id),
    );
  }
  await emptyVectorBacklog(app);
  console.log(
    `CoSQA: ${set.units.length} functions marked as code, ${limit} queries\n\n| strategy | R@10 | p50 ms | p95 ms | failed |\n|---|---:|---:|---:|---:|`,
  );
  for (const strategy of ["CODE", "LEXICAL"]) {
    let recall = 0;
    let failed = 0;
    const times: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      const res = await app.call("POST", "/v1/memories/recall", {
        agent_id: "cosqa",
        query: q.text,
        strategy,
        top_k: 10,
      });
      times.push(performance.now() - t0);
      if (res.status !== 200) {
        failed++;
        continue;
      }
      const found = new Set(
        res.body.results.map((r: { memory_id: string }) => unitOf.get(r.memory_id)),
      );
      const relevant = q.relevant;
      recall += relevant.filter((id) => found.has(id)).length / Math.max(relevant.length, 1);
    }
    times.sort((a, b) => a - b);
    console.log(
      `| ${strategy} | ${(recall / questions.length).toFixed(3)} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${failed} |`,
    );
  }
} finally {
  await app.stop();
}
process.exit(0);
