// Drives the mem0ai OSS Memory (in-process vector store, no LLM inference) over a corpus and reports
// add throughput and search latency as one JSON line. Runs under Node: mem0's "memory" vector store
// is better-sqlite3, a Node addon. Usage: node mem0-run.mjs <input.json>
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.MEM0_TELEMETRY = "false";
const { Memory } = await import("mem0ai/oss");

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const dir = mkdtempSync(join(tmpdir(), "mem0-bench-"));
const memory = new Memory({
  version: "v1.1",
  embedder: { provider: "openai", config: { apiKey: "bench", baseURL: input.embedBaseUrl, model: input.embedModel, embeddingDims: input.dimensions } },
  vectorStore: { provider: "memory", config: { collectionName: "bench", dimension: input.dimensions, dbPath: join(dir, "vectors.db") } },
  // Never called with infer:false; configured so construction does not look for a real key.
  llm: { provider: "openai", config: { apiKey: "bench", baseURL: input.embedBaseUrl, model: "none" } },
  historyStore: { provider: "sqlite", config: { historyDbPath: join(dir, "history.db") } },
});

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function pool(count, concurrency, fn) {
  let next = 0;
  const latencies = [];
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      await fn(i);
      latencies.push(performance.now() - started);
    }
  }));
  return latencies.sort((a, b) => a - b);
}

try {
  const addStarted = performance.now();
  await pool(input.contents.length, input.addConcurrency, (i) => memory.add(input.contents[i], { agentId: input.agentId, infer: false }));
  const addSeconds = (performance.now() - addStarted) / 1000;

  const searchStarted = performance.now();
  const latencies = await pool(input.queries.length, 1, (i) => memory.search(input.queries[i], { topK: 10, filters: { agent_id: input.agentId } }));
  const searchSeconds = (performance.now() - searchStarted) / 1000;

  process.stdout.write(JSON.stringify({
    added: input.contents.length,
    addPerSecond: input.contents.length / addSeconds,
    searches: latencies.length,
    searchPerSecond: latencies.length / searchSeconds,
    searchP50: percentile(latencies, 50),
    searchP95: percentile(latencies, 95),
    searchP99: percentile(latencies, 99),
  }) + "\n");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
