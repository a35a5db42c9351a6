// `npm run bench`: the whole benchmark in one run — ours vs the mem0ai peer vs an exact scan, per
// corpus tier. Flags: --tier=10k,100k (default) | --tier=1m (on demand) ; --quick (10k, fewer
// queries) ; --no-peer ; --no-quality ; --no-public (skip bench/quality-public.ts) ;
// --public-limit=N (its questions per set; 200 with --quick) ; --no-strategies (skips the
// per-strategy latency table, bench/strategy-latency.ts) ; --peer-pgvector=10k,100k (tiers for
// mem0's pgvector peer, default 10k; its in-process peer runs at 10k). The 1m tier is 1,000 agents
// of 1,000 memories in 100 tenants (--tenants=N scales it: N × 10 agents), bulk-loaded
// (bench/lib/tenants-load.ts), and queried over HTTP on a seeded random tenant and agent each time;
// --no-index-build skips its HNSW build (over 30 minutes on a loaded 2-core machine). The 1m tier
// also runs each periodic task once on one tenant of 1M memories (bench/periodic.ts;
// --no-periodic skips it).
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { startBenchApp } from "./lib/bench-app";
import { corpus, queries, rng } from "./lib/corpus";
import { exactVsHnsw } from "./lib/exact-vs-hnsw";
import { httpOverhead } from "./lib/http-overhead";
import { explainVector } from "./lib/explain-vector";
import { listenerLatency, type ListenerLatency } from "./lib/listener-latency";
import { loadCorpus, recallLoop, storeSingles } from "./lib/load-corpus";
import { fmt } from "./lib/format";
import { loop, type Latency } from "./lib/stats";
import { storage, type Storage } from "./lib/storage";
import { targetsTable } from "./lib/targets";
import { buildVectorIndex, loadTenants, type TenantLoad } from "./lib/tenants-load";
import { mem0Installed } from "./peer/mem0";
import { peerTiers, runPeers, type PeerRun } from "./peer/run-peers";
import { sideBySide } from "./peer/side-by-side";

const args = new Map<string, string | undefined>(
  process.argv.slice(2).map((a) => {
    const [name, value] = a.replace(/^--/, "").split("=");
    return [name!, value];
  }),
);
const quick = args.has("quick");
const SIZES: Record<string, number> = { "10k": 10_000, "100k": 100_000, "1m": 1_000_000 };
const tiers = (args.get("tier") ?? (quick ? "10k" : "10k,100k")).split(",").map((t: string) => {
  if (!(t in SIZES)) throw new Error(`unknown tier ${t}; use ${Object.keys(SIZES).join(", ")}`);
  return t;
});
const peerPlan = peerTiers(args.get("peer-pgvector"));
if (
  tiers.some((t) => peerPlan.memory.has(t) || peerPlan.pgvector.has(t)) &&
  !args.has("no-peer") &&
  !mem0Installed()
) {
  console.error(
    "the mem0ai peer is not installed: run `npm run bench:install` once (or pass --no-peer)",
  );
  process.exit(2);
}
const queryCount = quick ? 100 : 300;
/** Seed of the first pass's queries (the measured ones use the corpus default, 7). */
const FIRST_PASS_SEED = 8;

/**
 * The 1m tier's load, and (once its HNSW index is built) the recall measured before it; `recall` is
 * then the one with it.
 */
type BulkFigures = Omit<TenantLoad, "tenants"> & {
  indexSeconds?: number;
  recallBeforeIndex?: Latency;
};
type TierResult = {
  tier: string;
  memories: number;
  batchStorePerSecond: number;
  graphPerSecond: number;
  bulk?: BulkFigures;
  storage?: Storage;
  explain?: string;
  singleStore?: Latency;
  firstPass?: Latency;
  recall: Latency;
  sql: Awaited<ReturnType<typeof exactVsHnsw>>;
  http?: Awaited<ReturnType<typeof httpOverhead>>;
  listener?: ListenerLatency;
  peers?: PeerRun[];
};

async function runTier(tier: string): Promise<TierResult> {
  if (tier === "1m") return runTenantTier(tier);
  const size = SIZES[tier]!;
  const contents = corpus(size);
  const qs = queries(queryCount);
  const app = await startBenchApp(tier);
  try {
    console.error(`[${tier}] loading ${size} memories through POST /v1/memories/batch …`);
    const loaded = await loadCorpus(app, contents);
    const singleStore = tier === tiers[0] ? await storeSingles(app, corpus(500, 99)) : undefined;
    console.error(
      `[${tier}] recall (VECTOR): a first pass of other queries, the measured pass, then exact-vs-HNSW …`,
    );
    // Right after a bulk load the buffer cache holds what the load wrote, not what searches read:
    // the first pass (distinct queries, so none of the measured ones is cached as such) is printed
    // beside the measured one, which sees the caches of a service in use.
    const firstPass = await recallLoop(app, queries(queryCount, FIRST_PASS_SEED), 1, "VECTOR");
    const recall = await recallLoop(app, qs, 1, "VECTOR");
    const sql = await exactVsHnsw(app, qs.slice(0, quick ? 30 : 100));
    const explain = await explainVector(app, qs[0]!);
    const stored = await storage(app);
    const http = tier === "10k" ? await httpOverhead(app, loaded.ids, qs, quick) : undefined;
    const listener = tier === tiers[0] ? await listenerLatency(app, quick ? 50 : 200) : undefined;
    const peers = args.has("no-peer")
      ? undefined
      : await runPeers(
          tier,
          peerPlan,
          { contents, singles: corpus(500, 99), queries: qs },
          app.deps.config.EMBEDDING_DIMENSIONS,
        );
    return {
      tier,
      memories: size,
      batchStorePerSecond: loaded.perSecond,
      graphPerSecond: loaded.graphPerSecond,
      storage: stored,
      explain,
      singleStore,
      firstPass,
      recall,
      sql,
      http,
      listener,
      peers,
    };
  } finally {
    await app.stop();
  }
}

/**
 * Many small agents: each query goes to a seeded random tenant and agent, with that tenant's key.
 */
async function runTenantTier(tier: string): Promise<TierResult> {
  const shape = {
    tenants: Number(args.get("tenants") ?? 100),
    agentsPerTenant: 10,
    perAgent: 1000,
  };
  const app = await startBenchApp(tier);
  try {
    console.error(
      `[${tier}] bulk-loading ${shape.tenants} tenants × ${shape.agentsPerTenant} agents × ${shape.perAgent} memories …`,
    );
    const { tenants, ...bulk } = await loadTenants(app, shape);
    const random = rng(11);
    const qs = queries(queryCount);
    const pick = () => {
      const t = tenants[Math.floor(random() * tenants.length)]!;
      return {
        key: t.key,
        orgId: t.orgId,
        agentId: t.agents[Math.floor(random() * t.agents.length)]!,
      };
    };
    const picks = qs.map(pick);
    const firstQueries = queries(queryCount, FIRST_PASS_SEED);
    const firstPicks = firstQueries.map(pick);
    const ask = (p: typeof picks, q: string[], i: number) =>
      app.call(
        "POST",
        "/v1/memories/recall",
        { agent_id: p[i]!.agentId, query: q[i], top_k: 10, strategy: "VECTOR" },
        p[i]!.key,
      );
    // As for the other tiers: a first pass of other queries and tenants, printed beside the
    // measured one.
    const measure = async () => {
      const firstPass = await loop(
        firstQueries.length,
        1,
        120,
        async (i) => (await ask(firstPicks, firstQueries, i)).status === 200,
      );
      return {
        firstPass,
        recall: await loop(
          qs.length,
          1,
          120,
          async (i) => (await ask(picks, qs, i)).status === 200,
        ),
      };
    };
    console.error(
      `[${tier}] recall (VECTOR) over HTTP and exact-vs-HNSW, before the HNSW index is built …`,
    );
    const { firstPass, recall } = await measure();
    const sql = await exactVsHnsw(app, qs.slice(0, quick ? 30 : 100), false, picks);
    const explain = await explainVector(app, qs[0]!, picks[0]!);
    const result: TierResult = {
      tier,
      memories: bulk.memories,
      batchStorePerSecond: NaN,
      graphPerSecond: NaN,
      bulk,
      storage: await storage(app),
      explain,
      firstPass,
      recall,
      sql,
    };
    // Printed now: the index build that follows takes the longest, and the run may be cut short.
    print([result]);
    if (args.has("no-index-build")) return result;
    console.error(`[${tier}] building the HNSW index over ${bulk.memories} memories …`);
    const indexSeconds = await buildVectorIndex(app);
    console.error(
      `[${tier}] HNSW built in ${indexSeconds.toFixed(0)} s; recall again with the index present …`,
    );
    return {
      ...result,
      bulk: { ...bulk, indexSeconds, recallBeforeIndex: recall },
      ...(await measure()),
      storage: await storage(app),
    };
  } finally {
    await app.stop();
  }
}

function print(results: TierResult[]): void {
  const lines: string[] = [];
  lines.push(
    "| tier | batch store /s | then into the graph /s | first pass p50/p95 ms | recall p50 ms | recall p95 ms | recall p99 ms | recall req/s (c=1) | HNSW SQL p50/p95 ms | exact SQL p50/p95 ms | HNSW recall@10 |",
  );
  lines.push("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results)
    lines.push(
      `| ${r.tier} | ${fmt(r.batchStorePerSecond)} | ${fmt(r.graphPerSecond)} | ${r.firstPass ? `${fmt(r.firstPass.p50, 2)} / ${fmt(r.firstPass.p95, 2)}` : ""} | ${fmt(r.recall.p50, 2)} | ${fmt(r.recall.p95, 2)} | ${fmt(r.recall.p99, 2)} | ${fmt(r.recall.perSecond)} | ${fmt(r.sql.hnswP50, 2)} / ${fmt(r.sql.hnswP95, 2)} | ${fmt(r.sql.exactP50, 2)} / ${fmt(r.sql.exactP95, 2)} | ${r.sql.recallAt10.toFixed(3)} |`,
    );
  lines.push(
    "",
    "Memory and disk per tier (memories table; RSS of the bench process, which serves the app):",
    "",
    "| tier | rows | heap MB | TOAST MB | HNSW MB | other indexes MB | table total MB | database MB | RSS MB |",
    "|---|---|---|---|---|---|---|---|---|",
  );
  for (const r of results) {
    const st = r.storage;
    if (!st) continue;
    const hnsw = st.indexesMB["memories_embedding_1536"] ?? 0;
    const other = Object.values(st.indexesMB).reduce((a, b) => a + b, 0) - hnsw;
    lines.push(
      `| ${r.tier} | ${st.rows.toLocaleString("en-US")} | ${st.heapMB} | ${st.toastMB} | ${hnsw} | ${other} | ${st.totalMB} | ${st.databaseMB} | ${st.rssMB} |`,
    );
  }
  for (const r of results) {
    if (!r.bulk) continue;
    const b = r.bulk;
    lines.push(
      "",
      `${r.tier} load (bulk: product store path without HTTP, no HNSW index during the load): ${b.memories.toLocaleString("en-US")} memories in ${fmt(b.loadSeconds)} s (${fmt(b.memories / b.loadSeconds)}/s; embedding ${fmt(b.embedSeconds)} s, insert+audit ${fmt(b.insertSeconds)} s, summed over 2 workers)` +
        (b.indexSeconds === undefined
          ? "; HNSW index not built (recall above ran without it)"
          : `; HNSW build afterwards ${fmt(b.indexSeconds)} s; recall before the build: p50 ${fmt(b.recallBeforeIndex!.p50, 2)} ms, p95 ${fmt(b.recallBeforeIndex!.p95, 2)} ms`),
    );
  }
  for (const r of results)
    if (r.explain)
      lines.push(
        "",
        `EXPLAIN (ANALYZE, BUFFERS) of the VECTOR query's index shape at ${r.tier}:`,
        "",
        "```",
        r.explain,
        "```",
      );
  lines.push(...sideBySide(results));
  for (const r of results) {
    if (!r.http) continue;
    lines.push(
      "",
      `HTTP overhead at ${r.tier} (loopback, real server):`,
      "",
      "| route | concurrency | req/s | p50 ms | p95 ms | p99 ms | errors |",
      "|---|---|---|---|---|---|---|",
    );
    for (const row of r.http)
      lines.push(
        `| ${row.route} | ${row.concurrency} | ${fmt(row.perSecond)} | ${fmt(row.p50, 2)} | ${fmt(row.p95, 2)} | ${fmt(row.p99, 2)} | ${row.errors} |`,
      );
  }
  for (const r of results) {
    if (!r.listener) continue;
    const l = r.listener;
    lines.push(
      "",
      `Audit listener latency (store 201 → row in audit_log, ${l.writes} sequential stores, debounce ${l.debounceMs} ms): p50 ${fmt(l.p50, 1)} ms, p95 ${fmt(l.p95, 1)} ms, p99 ${fmt(l.p99, 1)} ms, max ${fmt(l.max, 1)} ms`,
    );
  }
  lines.push(...targetsTable(results));
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

/**
 * The retrieval-quality table (bench/quality.ts: the conversational set, every strategy against
 * BM25).
 */
async function qualityTable(): Promise<string> {
  console.error("retrieval quality (bench/quality.ts) …");
  const proc = Bun.spawn(
    [process.execPath, "run", new URL("./quality.ts", import.meta.url).pathname],
    { stdout: "pipe", stderr: "inherit" },
  );
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("bench/quality.ts failed");
  return out.trim();
}

/**
 * The public-data quality table (bench/quality-public.ts); `--public-limit=N` asks N questions per
 * set.
 */
async function publicQualityTable(): Promise<string> {
  console.error("retrieval quality on public data (bench/quality-public.ts) …");
  const limit = args.get("public-limit") ?? (quick ? "200" : undefined);
  const flags = limit ? [`--limit=${limit}`] : [];
  const proc = Bun.spawn(
    [process.execPath, "run", new URL("./quality-public.ts", import.meta.url).pathname, ...flags],
    { stdout: "pipe", stderr: "inherit" },
  );
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("bench/quality-public.ts failed");
  return out.trim();
}

/** Recall p50/p95/max per strategy at 10k memories in one agent (bench/strategy-latency.ts). */
async function strategyLatencyTable(): Promise<string> {
  console.error("per-strategy latency (bench/strategy-latency.ts) …");
  const script = new URL("./strategy-latency.ts", import.meta.url).pathname;
  const proc = Bun.spawn([process.execPath, "run", script, `--rounds=${quick ? 30 : 100}`], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("bench/strategy-latency.ts failed");
  return out.trim();
}

/**
 * Each periodic task once on one tenant of the tier's size (bench/periodic.ts): decay, TTL sweep,
 * retention cap, audit drain and one backfill delivery, with their times.
 */
async function periodicTable(count: number): Promise<string> {
  console.error(`periodic tasks at ${count} memories in one tenant (bench/periodic.ts) …`);
  const script = new URL("./periodic.ts", import.meta.url).pathname;
  const proc = Bun.spawn([process.execPath, "run", script, `--count=${count}`], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("bench/periodic.ts failed");
  return out.trim();
}

const results: TierResult[] = [];
for (const tier of tiers) results.push(await runTier(tier));
print(results);
const drain = args.has("no-drain") ? undefined : await auditDrain();
if (drain) console.log(`\nAudit drain (bench/audit-drain.ts):\n${drain}`);
const quality = args.has("no-quality") ? undefined : await qualityTable();
if (quality) console.log(`\n${quality}`);
const publicQuality =
  args.has("no-quality") || args.has("no-public") ? undefined : await publicQualityTable();
if (publicQuality) console.log(`\n${publicQuality}`);
const periodic =
  tiers.includes("1m") && !args.has("no-periodic") ? await periodicTable(SIZES["1m"]!) : undefined;
if (periodic) console.log(`\nPeriodic tasks, 1m tier (bench/periodic.ts):\n${periodic}`);
const strategies = args.has("no-strategies") ? undefined : await strategyLatencyTable();
if (strategies)
  console.log(`\nPer-strategy recall latency (bench/strategy-latency.ts):\n${strategies}`);
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  bun: Bun.version,
  platform: process.platform,
};
mkdirSync(new URL("./results/", import.meta.url).pathname, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const payload = JSON.stringify(
  {
    at: new Date().toISOString(),
    machine,
    args: process.argv.slice(2),
    results,
    auditDrain: drain ?? null,
    quality: quality ?? null,
    publicQuality: publicQuality ?? null,
    strategies: strategies ?? null,
  },
  null,
  2,
);
writeFileSync(new URL(`./results/bench-${stamp}.json`, import.meta.url).pathname, payload);
writeFileSync(new URL("./results/latest.json", import.meta.url).pathname, payload);
console.error(`wrote bench/results/bench-${stamp}.json`);
process.exit(0);
