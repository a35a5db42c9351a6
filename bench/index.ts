// `npm run bench`: the whole benchmark in one run — ours vs the mem0ai peer vs an exact scan, per corpus tier.
// Flags: --tier=10k,100k (default) | --tier=1m (on demand) ; --quick (10k, fewer queries) ; --no-peer.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { startBenchApp } from "./lib/bench-app";
import { corpus, queries } from "./lib/corpus";
import { exactVsHnsw } from "./lib/exact-vs-hnsw";
import { httpOverhead } from "./lib/http-overhead";
import { listenerLatency, type ListenerLatency } from "./lib/listener-latency";
import { loadCorpus, recallLoop, storeSingles } from "./lib/load-corpus";
import { type Latency } from "./lib/stats";
import { mem0Installed, runMem0, type PeerResult } from "./peer/mem0";

const args = new Map<string, string | undefined>(process.argv.slice(2).map((a) => {
  const [name, value] = a.replace(/^--/, "").split("=");
  return [name!, value];
}));
const quick = args.has("quick");
const SIZES: Record<string, number> = { "10k": 10_000, "100k": 100_000, "1m": 1_000_000 };
const tiers = (args.get("tier") ?? (quick ? "10k" : "10k,100k")).split(",").map((t: string) => {
  if (!(t in SIZES)) throw new Error(`unknown tier ${t}; use ${Object.keys(SIZES).join(", ")}`);
  return t;
});
if (tiers.includes("10k") && !args.has("no-peer") && !mem0Installed()) {
  console.error("the mem0ai peer is not installed: run `npm run bench:install` once (or pass --no-peer)");
  process.exit(2);
}
const queryCount = quick ? 100 : 300;
const peerQueries = quick ? 20 : 50;

type TierResult = { tier: string; memories: number; batchStorePerSecond: number; singleStore?: Latency; recall: Latency; sql: Awaited<ReturnType<typeof exactVsHnsw>>; http?: Awaited<ReturnType<typeof httpOverhead>>; listener?: ListenerLatency; peer?: PeerResult };

const fmt = (n: number | undefined, digits = 1) => n === undefined || Number.isNaN(n) ? "—" : n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(digits);

async function runTier(tier: string): Promise<TierResult> {
  const size = SIZES[tier]!;
  const contents = corpus(size);
  const qs = queries(queryCount);
  const app = await startBenchApp(tier);
  try {
    console.error(`[${tier}] loading ${size} memories through POST /v1/memories/batch …`);
    const loaded = await loadCorpus(app, contents);
    const singleStore = tier === tiers[0] ? await storeSingles(app, corpus(500, 99)) : undefined;
    console.error(`[${tier}] recall (VECTOR) and exact-vs-HNSW …`);
    await recallLoop(app, qs.slice(0, 20), 1, "VECTOR");
    const recall = await recallLoop(app, qs, 1, "VECTOR");
    const sql = await exactVsHnsw(app, qs.slice(0, quick ? 30 : 100));
    const http = tier === "10k" ? await httpOverhead(app, loaded.ids, qs, quick) : undefined;
    const listener = tier === tiers[0] ? await listenerLatency(app, quick ? 50 : 200) : undefined;
    let peer: PeerResult | undefined;
    if (tier === "10k" && !args.has("no-peer")) {
      console.error(`[${tier}] mem0ai peer on the same corpus …`);
      peer = await runMem0(contents, qs.slice(0, peerQueries), app.deps.config.EMBEDDING_DIMENSIONS);
    }
    return { tier, memories: size, batchStorePerSecond: loaded.perSecond, singleStore, recall, sql, http, listener, peer };
  } finally {
    await app.stop();
  }
}

function print(results: TierResult[]): void {
  const lines: string[] = [];
  lines.push("| tier | batch store /s | recall p50 ms | recall p95 ms | recall p99 ms | recall req/s (c=1) | HNSW SQL p50/p95 ms | exact SQL p50/p95 ms | HNSW recall@10 |");
  lines.push("|---|---|---|---|---|---|---|---|---|");
  for (const r of results) lines.push(`| ${r.tier} | ${fmt(r.batchStorePerSecond)} | ${fmt(r.recall.p50, 2)} | ${fmt(r.recall.p95, 2)} | ${fmt(r.recall.p99, 2)} | ${fmt(r.recall.perSecond)} | ${fmt(r.sql.hnswP50, 2)} / ${fmt(r.sql.hnswP95, 2)} | ${fmt(r.sql.exactP50, 2)} / ${fmt(r.sql.exactP95, 2)} | ${r.sql.recallAt10.toFixed(3)} |`);
  const first = results.find((r) => r.peer);
  if (first?.peer) {
    const p = first.peer;
    lines.push("", `Side by side at ${first.tier} (same corpus, same local embeddings):`, "", "| system | add /s | search p50 ms | search p95 ms | search /s (c=1) |", "|---|---|---|---|---|");
    lines.push(`| svc (batch store, recall VECTOR over HTTP) | ${fmt(first.batchStorePerSecond)} | ${fmt(first.recall.p50, 2)} | ${fmt(first.recall.p95, 2)} | ${fmt(first.recall.perSecond)} |`);
    if (first.singleStore) lines.push(`| svc (single POST /v1/memories, c=8) | ${fmt(first.singleStore.perSecond)} | | | |`);
    lines.push(`| mem0ai OSS (memory store, infer:false, add c=8) | ${fmt(p.addPerSecond)} | ${fmt(p.searchP50, 2)} | ${fmt(p.searchP95, 2)} | ${fmt(p.searchPerSecond)} |`);
    lines.push(`| exact scan in PostgreSQL (SQL only) | | ${fmt(first.sql.exactP50, 2)} | ${fmt(first.sql.exactP95, 2)} | |`);
    lines.push(`| ratio svc / mem0 | ${fmt(first.batchStorePerSecond / p.addPerSecond)}× | | ${fmt(p.searchP95 / first.recall.p95)}× faster p95 | ${fmt(first.recall.perSecond / p.searchPerSecond)}× |`);
  }
  for (const r of results) {
    if (!r.http) continue;
    lines.push("", `HTTP overhead at ${r.tier} (loopback, real server):`, "", "| route | concurrency | req/s | p50 ms | p95 ms | p99 ms | errors |", "|---|---|---|---|---|---|---|");
    for (const row of r.http) lines.push(`| ${row.route} | ${row.concurrency} | ${fmt(row.perSecond)} | ${fmt(row.p50, 2)} | ${fmt(row.p95, 2)} | ${fmt(row.p99, 2)} | ${row.errors} |`);
  }
  for (const r of results) {
    if (!r.listener) continue;
    const l = r.listener;
    lines.push("", `Audit listener latency (store 201 → row in audit_log, ${l.writes} sequential stores, debounce ${l.debounceMs} ms): p50 ${fmt(l.p50, 1)} ms, p95 ${fmt(l.p95, 1)} ms, p99 ${fmt(l.p99, 1)} ms, max ${fmt(l.max, 1)} ms`);
  }
  console.log(lines.join("\n"));
}

async function auditDrain(): Promise<string | undefined> {
  const script = new URL("./audit-drain.ts", import.meta.url).pathname;
  if (!existsSync(script)) return undefined;
  console.error("audit drain (bench/audit-drain.ts) …");
  const proc = Bun.spawn([process.execPath, "run", script], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return out.trim();
}

const results: TierResult[] = [];
for (const tier of tiers) results.push(await runTier(tier));
print(results);
const drain = args.has("no-drain") ? undefined : await auditDrain();
if (drain) console.log(`\nAudit drain (bench/audit-drain.ts):\n${drain}`);
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), bun: Bun.version, platform: process.platform };
mkdirSync(new URL("./results/", import.meta.url).pathname, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const payload = JSON.stringify({ at: new Date().toISOString(), machine, args: process.argv.slice(2), results, auditDrain: drain ?? null }, null, 2);
writeFileSync(new URL(`./results/bench-${stamp}.json`, import.meta.url).pathname, payload);
writeFileSync(new URL("./results/latest.json", import.meta.url).pathname, payload);
console.error(`wrote bench/results/bench-${stamp}.json`);
process.exit(0);
