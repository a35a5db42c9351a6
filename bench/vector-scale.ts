// VECTOR recall on one large agent (on demand, not part of `bun test`):
// `node_modules/.bin/bun run bench/vector-scale.ts [--size=100000] [--queries=200] [--keep]
// [--reuse=<svc_bench_… database>] [--compare-float]`. Loads `size` memories into one agent through
// the batch route (or reuses a database a `--keep` run left), ANALYZEs, prints the EXPLAIN
// (ANALYZE, BUFFERS) of the production VECTOR query, then times it inside PostgreSQL against an
// exact scan of the same filtered query (ANN recall@10), and over HTTP at c=1. --compare-float also
// builds the pre-0130 full-precision HNSW index (once; kept) and times the pre-0130 query shape on
// it in the same run.
import postgres from "postgres";
import { startBenchApp } from "./lib/bench-app";
import { corpus, queries } from "./lib/corpus";
import { exactVsHnsw } from "./lib/exact-vs-hnsw";
import { explainVector } from "./lib/explain-vector";
import { loadCorpus, recallLoop } from "./lib/load-corpus";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string | undefined]),
);
const size = Number(args.get("size") ?? 100_000);
const queryCount = Number(args.get("queries") ?? 200);
const reuse = args.get("reuse");

const app = await startBenchApp("vector_scale", {}, { reuse, keep: args.has("keep") });
try {
  if (!reuse) {
    console.error(`loading ${size} memories into one agent …`);
    const loaded = await loadCorpus(app, corpus(size, 42));
    console.error(`batch store ${Math.round(loaded.perSecond)}/s; database ${app.databaseName}`);
  }
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  const compare = args.has("compare-float");
  if (compare) {
    console.error("building the full-precision HNSW index for comparison (minutes at 100k) …");
    await owner`SET maintenance_work_mem = '1GB'`;
    await owner`CREATE INDEX IF NOT EXISTS memories_embedding_f1536_bench ON memories
      USING hnsw ((embedding::vector(1536)) vector_cosine_ops) WHERE valid_to IS NULL AND embedding_dims = 1536`;
  }
  await owner`ANALYZE memories`;
  const [sizes] = await owner<{ heap: string; toast: string; hnsw: string; rows: number }[]>`
    SELECT pg_size_pretty(pg_relation_size('memories')) AS heap,
      pg_size_pretty(pg_relation_size(reltoastrelid)) AS toast,
      pg_size_pretty(pg_relation_size('memories_embedding_1536')) AS hnsw, reltuples::int AS rows
    FROM pg_class WHERE relname = 'memories'`;
  await owner.end();
  const qs = queries(queryCount, 7);
  console.log(
    `\n${sizes!.rows} memories in one agent · heap ${sizes!.heap} · TOAST ${sizes!.toast} · HNSW ${sizes!.hnsw}\n`,
  );
  console.log("EXPLAIN (ANALYZE, BUFFERS) of the production VECTOR query:\n");
  console.log(await explainVector(app, qs[0]!));
  const sql = await exactVsHnsw(app, qs.slice(0, 50), compare);
  await recallLoop(app, qs.slice(0, 20), 1, "VECTOR");
  const http = await recallLoop(app, qs, 1, "VECTOR", 120);
  console.log("\n| measure | p50 ms | p95 ms |\n|---|---|---|");
  console.log(
    `| recall VECTOR over HTTP (c=1, ${http.count} queries, ${http.errors} errors) | ${http.p50.toFixed(2)} | ${http.p95.toFixed(2)} |`,
  );
  console.log(
    `| production query in SQL (${sql.queries} queries) | ${sql.hnswP50.toFixed(2)} | ${sql.hnswP95.toFixed(2)} |`,
  );
  if (sql.floatIndex)
    console.log(
      `| pre-0130 query on a full-precision HNSW index, in SQL | ${sql.floatIndex.p50.toFixed(2)} | ${sql.floatIndex.p95.toFixed(2)} |`,
    );
  console.log(
    `| exact scan of the same filtered query | ${sql.exactP50.toFixed(2)} | ${sql.exactP95.toFixed(2)} |`,
  );
  console.log(
    `\nANN recall@10 against the exact scan: production ${sql.recallAt10.toFixed(3)}${sql.floatIndex ? `, pre-0130 full-precision index ${sql.floatIndex.recallAt10.toFixed(3)}` : ""}`,
  );
} finally {
  await app.stop();
}
process.exit(0);
