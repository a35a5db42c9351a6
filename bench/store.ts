// `bun run bench/store.ts [--count=20000] [--dims=1536]`: batch store throughput through HTTP
// (POST /v1/memories/batch, 500 per call, 2 in flight) with the local embedder, the embedder alone,
// and how fast svc.generate_embedding then puts the batches' vectors into the HNSW graph (the
// vector backlog), on a throwaway database with the HNSW index of that dimension in place
// (`--without-hnsw` drops it, to show how much of the store cost is HNSW maintenance). A last load
// runs with a real worker (svc worker's loop, in this process) graphing alongside on the same two
// cores, as embedded mode or a one-box deployment would: the route's rate then, and how long until
// every vector is in the graph.
import { startBenchApp } from "./lib/bench-app";
import { corpus } from "./lib/corpus";
import { loadCorpus } from "./lib/load-corpus";
import { countWaitingRows } from "../src/data/queries/memories/vector-backlog";
import { withTenantRead } from "../src/data/with-tenant";
import { startWorker } from "../src/queue/worker";
import postgres from "postgres";
import { createLocalEmbedder } from "../src/providers/embeddings/local";

const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const count = flag("count", 20_000);
const dims = flag("dims", 1536);
const withoutHnsw = process.argv.includes("--without-hnsw");
const contents = corpus(count, 5);

const embedder = createLocalEmbedder(dims);
const started = performance.now();
for (let i = 0; i < contents.length; i += 500)
  await embedder.embed(contents.slice(i, i + 500), { orgId: "bench" });
const embedPerSecond = count / ((performance.now() - started) / 1000);

const app = await startBenchApp("store", { EMBEDDING_DIMENSIONS: dims });
try {
  if (withoutHnsw) {
    // DDL: the owner's (startBenchApp created the index as the owner)
    const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
    await owner.unsafe(`DROP INDEX memories_embedding_${dims}`); // integer from argv
    await owner.end();
  }
  await loadCorpus(app, corpus(1000, 6));
  const loaded = await loadCorpus(app, contents);
  console.log(`| measure | memories/s |\n|---|---|`);
  console.log(
    `| local embedder alone (${dims} dims) | ${Math.round(embedPerSecond).toLocaleString("en-US")} |`,
  );
  console.log(
    `| batch store through HTTP, ${count} memories, ${dims} dims (embed + insert + audit; the graph later) | ${Math.round(loaded.perSecond).toLocaleString("en-US")} |`,
  );
  console.log(
    `| then into the ${withoutHnsw ? "(dropped) " : ""}HNSW graph: svc.generate_embedding, one job | ${Math.round(loaded.graphPerSecond).toLocaleString("en-US")} |`,
  );
  const worker = await startWorker(app.deps);
  try {
    const started = performance.now();
    const alongside = await loadCorpus(app, corpus(count, 7), 2, { graph: false });
    while ((await withTenantRead(app.deps.db, app.orgId, countWaitingRows)) > 0)
      await Bun.sleep(200);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `| batch store through HTTP, ${count} more, with the worker graphing alongside | ${Math.round(alongside.perSecond).toLocaleString("en-US")} |`,
    );
    console.log(
      `| the same ${count}, stored and in the graph (until the backlog is empty) | ${Math.round(count / seconds).toLocaleString("en-US")} |`,
    );
  } finally {
    await worker.close();
  }
} finally {
  await app.stop();
}
