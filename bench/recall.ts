// Recall benchmark (on demand, not part of `bun test`):
// `node_modules/.bin/bun run bench/recall.ts [--tiers=10k,100k] [--queries=300]
// [--ef=<RECALL_HNSW_EF_SEARCH>] [--skip-quality]`. Per tier and layout (one agent; 100 agents in
// 10 orgs): batch and single store throughput, recall p50/p95/p99 over loopback HTTP for VECTOR and
// LEXICAL, ANN recall@10 of the production HNSW query against an exact scan; then a seeded
// retrieval-quality set: recall@5/@10 per strategy against an in-process BM25 baseline.
import { mkdirSync, writeFileSync } from "node:fs";
import { systemActor } from "../src/domain/actor";
import { ensureOrg } from "../src/domain/keys/bootstrap";
import { createKey } from "../src/domain/keys/manage";
import { withTenant } from "../src/data/with-tenant";
import { nearestQuery, setHnswSearch, vectorSearch } from "../src/data/queries/recall/vector";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { corpus, queries } from "./lib/corpus";
import { bm25, qualitySet } from "./lib/quality-set";
import { emptyVectorBacklog } from "./lib/load-corpus";
import { loop, type Latency } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const SIZES: Record<string, number> = { "10k": 10_000, "100k": 100_000 };
const tiers = (args.get("tiers") ?? "10k").split(",");
const queryCount = Number(args.get("queries") ?? 300);
const ANN_QUERIES = 50;
const overrides = args.has("ef") ? { RECALL_HNSW_EF_SEARCH: Number(args.get("ef")) } : {};

type Tenant = { orgId: string; key: string; agents: string[] };
type Layout = "1 agent" | "100 agents / 10 orgs";

async function callAs(
  app: BenchApp,
  key: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(app.base + path, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function tenantsFor(app: BenchApp, layout: Layout): Promise<Tenant[]> {
  if (layout === "1 agent") return [{ orgId: app.orgId, key: app.key, agents: ["bench-agent"] }];
  const tenants: Tenant[] = [{ orgId: app.orgId, key: app.key, agents: [] }];
  for (let o = 1; o < 10; o++) {
    const orgId = await ensureOrg(app.deps.db, `bench-org-${o}`);
    tenants.push({
      orgId,
      key: (await createKey(app.deps.db, systemActor(orgId), "bench")).key,
      agents: [],
    });
  }
  for (const t of tenants) t.agents = Array.from({ length: 10 }, (_, a) => `agent-${a}`);
  return tenants;
}

/**
 * Memory i goes to tenant i % orgs and agent ⌊i / orgs⌋ % agents, so every agent gets an equal
 * share.
 */
const ownerOf = (tenants: Tenant[], i: number) => {
  const tenant = tenants[i % tenants.length]!;
  return { tenant, agent: tenant.agents[Math.floor(i / tenants.length) % tenant.agents.length]! };
};

async function load(app: BenchApp, tenants: Tenant[], contents: string[]): Promise<number> {
  const groups = new Map<
    string,
    { key: string; items: Array<{ agent_id: string; content: string }> }
  >();
  contents.forEach((content, i) => {
    const { tenant, agent } = ownerOf(tenants, i);
    const g = groups.get(tenant.key + agent) ?? { key: tenant.key, items: [] };
    g.items.push({ agent_id: agent, content });
    groups.set(tenant.key + agent, g);
  });
  const batches = [...groups.values()].flatMap((g) =>
    Array.from({ length: Math.ceil(g.items.length / 500) }, (_, b) => ({
      key: g.key,
      memories: g.items.slice(b * 500, (b + 1) * 500),
    })),
  );
  const started = performance.now();
  await loop(batches.length, 2, 3600, async (i) => {
    const res = await callAs(app, batches[i]!.key, "/v1/memories/batch", {
      memories: batches[i]!.memories,
    });
    if (res.status !== 201)
      throw new Error(
        `batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    return true;
  });
  const perSecond = contents.length / ((performance.now() - started) / 1000);
  await emptyVectorBacklog(
    app,
    tenants.map((t) => t.orgId),
  ); // the worker's part, so recall is measured in its steady state
  return perSecond;
}

function recallLoad(
  app: BenchApp,
  tenants: Tenant[],
  qs: string[],
  strategy: string,
  concurrency: number,
): Promise<Latency> {
  return loop(qs.length, concurrency, 60, async (i) => {
    const { tenant, agent } = ownerOf(tenants, i * 7);
    return (
      (
        await callAs(app, tenant.key, "/v1/memories/recall", {
          agent_id: agent,
          query: qs[i],
          top_k: 10,
          strategy,
        })
      ).status === 200
    );
  });
}

/** The production VECTOR query (iterative HNSW scan) against the same filter as an exact scan. */
async function annRecall(app: BenchApp, tenants: Tenant[], qs: string[]): Promise<number> {
  const { config, embedder, db } = app.deps;
  const { vectors } = await embedder.embed(qs, { orgId: app.orgId });
  let overlap = 0;
  for (const [i, vector] of vectors.entries()) {
    const { tenant, agent } = ownerOf(tenants, i * 7);
    const search = {
      filter: { orgId: tenant.orgId, agentId: agent },
      vector,
      dimensions: embedder.dimensions,
      limit: 10,
      efSearch: config.RECALL_HNSW_EF_SEARCH,
      maxScanTuples: config.RECALL_HNSW_MAX_SCAN_TUPLES,
      exactMaxRows: config.RECALL_VECTOR_EXACT_MAX_ROWS,
    };
    const approx = await withTenant(db, tenant.orgId, async (tx) => {
      await setHnswSearch(tx, search.efSearch, search.maxScanTuples);
      return vectorSearch(tx, search);
    });
    const exact = await withTenant(db, tenant.orgId, async (tx) => {
      await tx`SELECT set_config('enable_indexscan', 'off', true)`;
      return nearestQuery(tx, search, "exact");
    });
    const truth = new Set(exact.map((r) => r.memory_id));
    overlap += approx.filter((r) => truth.has(r.memory_id)).length / Math.max(1, truth.size);
  }
  return overlap / vectors.length;
}

type Row = {
  tier: string;
  layout: Layout;
  memories: number;
  batchPerSecond: number;
  single: Latency;
  recall: Record<string, Latency>;
  annRecallAt10: number;
};

async function runLayout(tier: string, layout: Layout): Promise<Row> {
  const size = SIZES[tier]!;
  const app = await startBenchApp(
    `recall_${tier}_${layout === "1 agent" ? "one" : "multi"}`,
    overrides,
  );
  try {
    const tenants = await tenantsFor(app, layout);
    const batchPerSecond = await load(app, tenants, corpus(size, 42));
    const singles = corpus(200, 4242);
    const single = await loop(singles.length, 4, 60, async (i) => {
      const { tenant, agent } = ownerOf(tenants, i);
      return (
        (await callAs(app, tenant.key, "/v1/memories", { agent_id: agent, content: singles[i] }))
          .status === 201
      );
    });
    await app.analyze();
    const qs = queries(queryCount, 7);
    await recallLoad(app, tenants, qs.slice(0, 50), "VECTOR", 2);
    const recall: Record<string, Latency> = {};
    for (const strategy of ["VECTOR", "LEXICAL"]) {
      for (const concurrency of [1, 4])
        recall[`${strategy} c${concurrency}`] = await recallLoad(
          app,
          tenants,
          qs,
          strategy,
          concurrency,
        );
    }
    const annRecallAt10 = await annRecall(app, tenants, qs.slice(0, ANN_QUERIES));
    return {
      tier,
      layout,
      memories: size + singles.length,
      batchPerSecond,
      single,
      recall,
      annRecallAt10,
    };
  } finally {
    await app.stop();
  }
}

type Quality = Record<string, { at5: number; at10: number }>;

async function runQuality(): Promise<{
  facts: number;
  distractors: number;
  questions: number;
  byKind: Record<string, Quality>;
}> {
  const items = qualitySet(60);
  const distractors = corpus(2000, 99);
  const app = await startBenchApp("recall_quality");
  try {
    const docs = [...items.map((q) => q.fact), ...distractors];
    const ids: string[] = [];
    for (let b = 0; b < docs.length; b += 500) {
      const res = await callAs(app, app.key, "/v1/memories/batch", {
        memories: docs.slice(b, b + 500).map((content) => ({ agent_id: "quality", content })),
      });
      ids.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
    }
    const baseline = bm25(docs);
    const byKind: Record<string, Quality> = {};
    for (const kind of ["paraphrase", "keyword"] as const) {
      const quality: Quality = {};
      const score = (name: string, hit: (i: number) => Promise<string[]>) =>
        (async () => {
          let at5 = 0,
            at10 = 0;
          for (let i = 0; i < items.length; i++) {
            const found = await hit(i);
            if (found.slice(0, 5).includes(ids[i]!)) at5++;
            if (found.slice(0, 10).includes(ids[i]!)) at10++;
          }
          quality[name] = { at5: at5 / items.length, at10: at10 / items.length };
        })();
      await score("BM25 (baseline)", async (i) =>
        baseline(items[i]![kind], 10).map((d) => ids[d]!),
      );
      for (const strategy of ["VECTOR", "LEXICAL", "AUTO"]) {
        await score(strategy, async (i) =>
          (
            await callAs(app, app.key, "/v1/memories/recall", {
              agent_id: "quality",
              query: items[i]![kind],
              top_k: 10,
              strategy,
            })
          ).body.results.map((r: { memory_id: string }) => r.memory_id),
        );
      }
      byKind[kind] = quality;
    }
    return {
      facts: items.length,
      distractors: distractors.length,
      questions: items.length * 2,
      byKind,
    };
  } finally {
    await app.stop();
  }
}

const ms = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(1));
const rows: Row[] = [];
for (const tier of tiers) {
  if (!(tier in SIZES))
    throw new Error(`unknown tier ${tier}; use ${Object.keys(SIZES).join(", ")}`);
  for (const layout of ["1 agent", "100 agents / 10 orgs"] as const) {
    const row = await runLayout(tier, layout);
    rows.push(row);
    console.log(
      `\n${tier} · ${layout}: batch store ${Math.round(row.batchPerSecond)}/s · single store ${Math.round(row.single.perSecond)}/s (p95 ${ms(row.single.p95)} ms) · ANN recall@10 ${row.annRecallAt10.toFixed(3)}`,
    );
    console.log("  strategy      conc   req/s   p50 ms   p95 ms   p99 ms  errors");
    for (const [name, l] of Object.entries(row.recall)) {
      const [strategy, c] = name.split(" ");
      console.log(
        `  ${strategy!.padEnd(12)} ${c!.slice(1).padStart(5)} ${Math.round(l.perSecond).toString().padStart(7)} ${ms(l.p50).padStart(8)} ${ms(l.p95).padStart(8)} ${ms(l.p99).padStart(8)} ${String(l.errors).padStart(7)}`,
      );
    }
  }
}
const quality = args.has("skip-quality") ? null : await runQuality();
if (quality) {
  console.log(
    `\nRetrieval quality: ${quality.facts} facts among ${quality.distractors} distractors, one right fact per question`,
  );
  console.log("  question     strategy           recall@5  recall@10");
  for (const [kind, q] of Object.entries(quality.byKind)) {
    for (const [name, r] of Object.entries(q))
      console.log(
        `  ${kind.padEnd(12)} ${name.padEnd(18)} ${r.at5.toFixed(2).padStart(8)} ${r.at10.toFixed(2).padStart(10)}`,
      );
  }
}
mkdirSync("bench/results", { recursive: true });
const file = `bench/results/recall-${new Date().toISOString().replace(/[:.]/g, "").slice(0, 17)}.json`;
writeFileSync(file, JSON.stringify({ tiers, queryCount, overrides, rows, quality }, null, 2));
console.log(`\nwrote ${file}`);
