// `bun run bench/quality-public.ts`: retrieval quality on public data (../shared/bench-data,
// README there). Each set is stored through the real HTTP API (bench/lib/store-units.ts) as that
// README scores it: LoCoMo one memory per turn through the batch API in the set's order, the
// session's date as occurred_at, one agent per LoCoMo conversation (--as-conversations: appended
// to a conversation per session instead); SciFact and CoSQA one agent, one memory per document.
// Every question is asked through POST /v1/memories/recall for AUTO and each strategy that
// applies, scored beside plain BM25 over the same units in the same run (bench/lib/bm25-plain.ts).
// The seeded set of bench/quality.ts is one more row ("generated"). Prints a table per set (per
// category and overall: R@5, R@10, MRR, nDCG@10, failed recalls, p50/p95 ms) and writes JSON under
// bench/results/. Flags: --sets=locomo,scifact,cosqa,generated (default all) ; --limit=N (questions
// per set, spread evenly) ; --offset=K (each pick shifted by K: other questions, to validate beyond
// the default ones) ; --strategies=AUTO,LEXICAL,… (default: those that apply to each set; given,
// they run on every set) ; --analyze (VACUUM ANALYZE after each load; by default recall runs on
// what a fresh load leaves) ; --as-conversations (LoCoMo's sessions through the conversations API).
// BENCH_DATA_DIR overrides where the sets are read.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { plainBm25 } from "./lib/bm25-plain";
import { emptyVectorBacklog } from "./lib/load-corpus";
import { storeUnits } from "./lib/store-units";
import { GENERATED_SET, loadPublicSet, PUBLIC_SET_NAMES } from "./lib/public-sets";
import type { PublicSet } from "./lib/public-sets";
import { mean, score, type Scores } from "./lib/retrieval-metrics";
import { percentile } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k!, v] as const;
  }),
);
const SETS = (args.get("sets") ?? [...PUBLIC_SET_NAMES, GENERATED_SET].join(",")).split(",");
const LIMIT = args.has("limit") ? Number(args.get("limit")) : Infinity;
const OFFSET = Number(args.get("offset") ?? 0);
const ONLY = args
  .get("strategies")
  ?.split(",")
  .map((s) => s.toUpperCase());
const TOP_K = 10;
const BASELINE = "BM25 (in-process)";

type Row = {
  system: string;
  byCategory: Record<string, Scores>;
  overall: Scores;
  failed: number;
  p50: number;
  p95: number;
};
type SetResult = {
  set: string;
  units: number;
  agents: number;
  questions: number;
  loadSeconds: number;
  rows: Row[];
  autoAnsweredWith: Record<string, number>;
};

/**
 * `limit` questions spread evenly, so a short run still sees every agent and category; `offset`
 * shifts each pick, so `--offset=1` asks other questions than the default run (validation beyond
 * them).
 */
function spread<T>(all: T[], limit: number, offset: number): T[] {
  if (limit >= all.length) return all;
  return Array.from(
    { length: limit },
    (_, i) => all[(Math.floor((i * all.length) / limit) + offset) % all.length]!,
  );
}

/** BM25 per agent over exactly the stored units: the unit ids of the top 10. */
function baseline(set: PublicSet): (agent: string, query: string) => string[] {
  const byAgent = new Map<string, (query: string) => string[]>();
  for (const agent of new Set(set.units.map((u) => u.agent))) {
    const units = set.units.filter((u) => u.agent === agent);
    const search = plainBm25(units.map((u) => u.content));
    byAgent.set(agent, (query) => search(query, TOP_K).map((i) => units[i]!.id));
  }
  return (agent, query) => byAgent.get(agent)!(query);
}

async function runSet(app: BenchApp, name: string): Promise<SetResult> {
  const set = loadPublicSet(name);
  const questions = spread(set.questions, LIMIT, OFFSET);
  const strategies = ONLY ?? set.strategies;
  console.error(`[${name}] storing ${set.units.length} units …`);
  const started = performance.now();
  const memoryToUnit = await storeUnits(app, set.units, args.has("as-conversations"));
  await emptyVectorBacklog(app);
  if (args.has("analyze")) await app.analyze();
  const loadSeconds = (performance.now() - started) / 1000;
  console.error(`[${name}] stored in ${loadSeconds.toFixed(1)} s; ${questions.length} questions`);

  const bm25 = baseline(set);
  const scores = new Map<string, Map<string, Scores[]>>();
  const latencies = new Map<string, number[]>();
  const failed = new Map<string, number>();
  const autoAnsweredWith: Record<string, number> = {};
  const add = (system: string, category: string, s: Scores) => {
    const byCategory = scores.get(system) ?? new Map<string, Scores[]>();
    byCategory.set(category, [...(byCategory.get(category) ?? []), s]);
    scores.set(system, byCategory);
  };
  for (const q of questions) {
    add(BASELINE, q.category, score(bm25(q.agent, q.text), q.relevant));
    for (const strategy of strategies) {
      const t0 = performance.now();
      const body = { agent_id: q.agent, query: q.text, top_k: TOP_K, strategy };
      // A failed recall (an error status or a dropped connection) scores as an empty answer.
      const r = await app
        .call("POST", "/v1/memories/recall", body)
        .catch(() => ({ status: 0, body: null }));
      const ms = performance.now() - t0;
      if (r.status !== 200) {
        failed.set(strategy, (failed.get(strategy) ?? 0) + 1);
        add(strategy, q.category, score([], q.relevant));
        continue;
      }
      latencies.set(strategy, [...(latencies.get(strategy) ?? []), ms]);
      const results: Array<{ memory_id: string }> = r.body.results;
      const ranked = results.map((m) => memoryToUnit.get(m.memory_id) ?? m.memory_id);
      add(strategy, q.category, score(ranked, q.relevant));
      const by: string = r.body.strategy;
      if (strategy === "AUTO") autoAnsweredWith[by] = 1 + (autoAnsweredWith[by] ?? 0);
    }
  }
  const rows: Row[] = [BASELINE, ...strategies].map((system) => {
    const byCategory = scores.get(system) ?? new Map<string, Scores[]>();
    const sorted = (latencies.get(system) ?? []).sort((a, b) => a - b);
    return {
      system,
      byCategory: Object.fromEntries(set.categories.map((c) => [c, mean(byCategory.get(c) ?? [])])),
      overall: mean([...byCategory.values()].flat()),
      failed: failed.get(system) ?? 0,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
    };
  });
  const agents = new Set(set.units.map((u) => u.agent)).size;
  const units = set.units.length;
  const asked = questions.length;
  return { set: name, units, agents, questions: asked, loadSeconds, rows, autoAnsweredWith };
}

const f3 = (n: number) => n.toFixed(3);
const ms = (n: number) => (Number.isNaN(n) ? "" : n.toFixed(1));

function table(r: SetResult): string {
  const categories = Object.keys(r.rows[0]!.byCategory);
  const perCategory = categories.length > 1 ? categories : [];
  const head = [
    ...perCategory.map((c) => `${c} R@10`),
    "R@5",
    "R@10",
    "MRR",
    "nDCG@10",
    "failed",
    "p50 ms",
    "p95 ms",
  ];
  const units = r.units.toLocaleString("en-US");
  const lines = [
    `### ${r.set}: ${units} units, ${r.agents} agent(s), ${r.questions} questions, top_k ${TOP_K}`,
    "",
    `| system | ${head.join(" | ")} |`,
    `|---|${head.map(() => "---:").join("|")}|`,
  ];
  for (const row of r.rows) {
    const o = row.overall;
    const failed = row.system === BASELINE ? "" : String(row.failed);
    const cells = [
      ...perCategory.map((c) => f3(row.byCategory[c]!.recall10)),
      f3(o.recall5),
      f3(o.recall10),
      f3(o.mrr),
      f3(o.ndcg10),
      failed,
      ms(row.p50),
      ms(row.p95),
    ];
    lines.push(`| ${row.system} | ${cells.join(" | ")} |`);
  }
  const answered = Object.entries(r.autoAnsweredWith).sort((a, b) => b[1] - a[1]);
  const counts = answered.map(([s, n]) => `${s} ×${n}`).join(", ");
  if (answered.length > 0) lines.push("", `AUTO answered with: ${counts}`);
  return lines.join("\n");
}

/** One line per set: its headline figure (SciFact nDCG@10, the others R@10) for each system. */
function summary(results: SetResult[]): string {
  const systems = [...new Set(results.flatMap((r) => r.rows.map((row) => row.system)))];
  const lines = [
    `| set | figure | ${systems.join(" | ")} |`,
    `|---|---|${systems.map(() => "---:").join("|")}|`,
  ];
  for (const r of results) {
    const figure = r.set === "scifact" ? "ndcg10" : "recall10";
    const cells = systems.map((s) => {
      const row = r.rows.find((x) => x.system === s);
      return row ? f3(row.overall[figure]) : "";
    });
    lines.push(`| ${r.set} | ${figure === "ndcg10" ? "nDCG@10" : "R@10"} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

const app = await startBenchApp("quality_public");
const results: SetResult[] = [];
try {
  for (const name of SETS) {
    results.push(await runSet(app, name));
    console.error(table(results.at(-1)!)); // as it comes: a long run that is cut short still shows it
  }
} finally {
  await app.stop();
}
const tables = results.map((r) => `${table(r)}\n`);
console.log(
  ["## Retrieval quality on public data", "", summary(results), "", ...tables].join("\n"),
);
mkdirSync(new URL("./results/", import.meta.url).pathname, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const payload = {
  at: new Date().toISOString(),
  cpus: cpus().length,
  args: process.argv.slice(2),
  results,
};
const file = new URL(`./results/quality-public-${stamp}.json`, import.meta.url).pathname;
writeFileSync(file, JSON.stringify(payload, null, 2));
console.error(`wrote bench/results/quality-public-${stamp}.json`);
process.exit(0);
