// `bun run bench/lexical-scale.ts`: LEXICAL's latency over HTTP at c=1 on one agent of real text,
// right after a bulk load (no ANALYZE: this server runs without autovacuum, and embedded PGlite
// never has one) and again after VACUUM ANALYZE. The memories are the units of the public sets
// (../shared/bench-data: LoCoMo turns, SciFact abstracts, CoSQA functions) in one agent, cycled
// with a number when there are more memories than units; the queries are LoCoMo's questions. Flags:
// --memories=10000 ; --requests=300 ; --strategies=LEXICAL (comma-separated, asked in turn).
import { startBenchApp } from "./lib/bench-app";
import { AGENT, loadCorpus } from "./lib/load-corpus";
import { loadPublicSet } from "./lib/public-sets";
import { percentile } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k!, v] as const;
  }),
);
const MEMORIES = Number(args.get("memories") ?? 10_000);
const REQUESTS = Number(args.get("requests") ?? 300);
const STRATEGIES = (args.get("strategies") ?? "LEXICAL").split(",");

const units = ["locomo", "scifact", "cosqa"].flatMap((s) =>
  loadPublicSet(s).units.map((u) => u.content),
);
const contents = Array.from({ length: MEMORIES }, (_, i) => {
  const text = units[i % units.length]!;
  return i < units.length ? text : `${text} #${Math.floor(i / units.length)}`;
});
const questions = loadPublicSet("locomo").questions.map((q) => q.text);

const app = await startBenchApp("lexical_scale");
try {
  console.error(`loading ${MEMORIES} memories into one agent …`);
  await loadCorpus(app, contents);
  const lines = [
    "| statistics | strategy | p50 ms | p95 ms | p99 ms | max ms | failed |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const state of ["fresh load, no ANALYZE", "after VACUUM ANALYZE"]) {
    if (state.startsWith("after")) await app.analyze();
    const times = new Map<string, number[]>(STRATEGIES.map((s) => [s, []]));
    const failed = new Map<string, number>();
    for (let i = 0; i < REQUESTS; i++) {
      for (const strategy of STRATEGIES) {
        const body = {
          agent_id: AGENT,
          query: questions[i % questions.length],
          top_k: 10,
          strategy,
        };
        const t0 = performance.now();
        const r = await app.call("POST", "/v1/memories/recall", body);
        if (r.status === 200) times.get(strategy)!.push(performance.now() - t0);
        else failed.set(strategy, (failed.get(strategy) ?? 0) + 1);
      }
    }
    for (const [strategy, all] of times) {
      const sorted = all.sort((a, b) => a - b);
      const at = (p: number) => percentile(sorted, p).toFixed(1);
      lines.push(
        `| ${state} | ${strategy} | ${at(50)} | ${at(95)} | ${at(99)} | ${(sorted.at(-1) ?? NaN).toFixed(1)} | ${failed.get(strategy) ?? 0} |`,
      );
    }
  }
  console.log(
    `## LEXICAL at ${MEMORIES.toLocaleString("en-US")} memories in one agent, HTTP, c=1, ${REQUESTS} LoCoMo questions\n\n${lines.join("\n")}`,
  );
} finally {
  await app.stop();
}
process.exit(0);
