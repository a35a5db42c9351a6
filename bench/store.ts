// `bun run bench/store.ts [--count=20000]`: batch store throughput through HTTP (POST /v1/memories/batch,
// 500 per call, 2 in flight) with the local embedder, and the embedder alone, on a throwaway database.
import { startBenchApp } from "./lib/bench-app";
import { corpus } from "./lib/corpus";
import { loadCorpus } from "./lib/load-corpus";
import { createLocalEmbedder } from "../src/providers/embeddings/local";

const count = Number(process.argv.find((a) => a.startsWith("--count="))?.split("=")[1] ?? 20_000);
const contents = corpus(count, 5);

const embedder = createLocalEmbedder(1536);
const started = performance.now();
for (let i = 0; i < contents.length; i += 500) await embedder.embed(contents.slice(i, i + 500), { orgId: "bench" });
const embedPerSecond = count / ((performance.now() - started) / 1000);

const app = await startBenchApp("store");
try {
  await loadCorpus(app, corpus(1000, 6));
  const loaded = await loadCorpus(app, contents);
  console.log(`| measure | memories/s |\n|---|---|`);
  console.log(`| local embedder alone (1536 dims) | ${Math.round(embedPerSecond).toLocaleString("en-US")} |`);
  console.log(`| batch store through HTTP, ${count} memories (embed + insert + audit) | ${Math.round(loaded.perSecond).toLocaleString("en-US")} |`);
} finally {
  await app.stop();
}
