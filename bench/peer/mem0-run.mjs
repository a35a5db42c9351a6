// Drives the mem0ai OSS Memory (no LLM inference) over a corpus, the way bench/index.ts drives svc, and
// reports one JSON line. Runs under Node: the "memory" vector store and the sqlite history store are
// better-sqlite3, a Node addon. Usage: node mem0-run.mjs <input.json>
//
// input.store: "memory" (in-process, SQLite) or "pgvector" (input.connectionString, input.hnsw).
// Same order as svc's tier: load the corpus in calls of input.batchSize messages (input.batchInFlight in
// flight), then input.singles single adds at input.singleConcurrency, then searches one at a time.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.MEM0_TELEMETRY = "false";
const { Memory } = await import("mem0ai/oss");

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const dir = mkdtempSync(join(tmpdir(), "mem0-bench-"));
const vectorStore =
  input.store === "pgvector"
    ? {
        provider: "pgvector",
        config: {
          collectionName: "bench",
          embeddingModelDims: input.dimensions,
          dimension: input.dimensions,
          connectionString: input.connectionString,
          hnsw: input.hnsw,
        },
      }
    : {
        provider: "memory",
        config: {
          collectionName: "bench",
          dimension: input.dimensions,
          dbPath: join(dir, "vectors.db"),
        },
      };
const memory = new Memory({
  version: "v1.1",
  embedder: {
    provider: "openai",
    config: {
      apiKey: "bench",
      baseURL: input.embedBaseUrl,
      model: input.embedModel,
      embeddingDims: input.dimensions,
    },
  },
  vectorStore,
  // Never called with infer:false; configured so construction does not look for a real key.
  llm: {
    provider: "openai",
    config: { apiKey: "bench", baseURL: input.embedBaseUrl, model: "none" },
  },
  historyStore: { provider: "sqlite", config: { historyDbPath: join(dir, "history.db") } },
});

const percentile = (sorted, p) =>
  sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `count` calls of fn with `concurrency` in flight, stopping after `maxSeconds`; latencies sorted. */
async function pool(count, concurrency, fn, maxSeconds = Infinity) {
  let next = 0;
  const latencies = [];
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count && performance.now() < deadline) {
        const i = next++;
        const t0 = performance.now();
        await fn(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    perSecond: latencies.length / seconds,
    seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

const progress = (label) => (done, total) => {
  if (process.stderr.isTTY)
    process.stderr.write(`\r[mem0 ${input.store}] ${label} ${done}/${total}`);
};

try {
  const { contents, singles, queries, agentId } = input;
  const chunks = Math.ceil(contents.length / input.batchSize);
  let loaded = 0;
  const load = progress("load");
  // add(messages[]) with infer:false stores every message as its own memory, one embedding call and one
  // insert per message, in order: mem0's nearest thing to a batch store.
  const batch = await pool(chunks, input.batchInFlight, async (i) => {
    const messages = contents
      .slice(i * input.batchSize, (i + 1) * input.batchSize)
      .map((content) => ({ role: "user", content }));
    await memory.add(messages, { agentId, infer: false });
    loaded += messages.length;
    load(loaded, contents.length);
  });
  const single = await pool(singles.length, input.singleConcurrency, (i) =>
    memory.add(singles[i], { agentId, infer: false }),
  );

  const search = (q) => memory.search(q, { topK: 10, filters: { agent_id: agentId } });
  await pool(Math.min(20, queries.length), 1, (i) => search(queries[i]), 10);
  const searched = await pool(queries.length, 1, (i) => search(queries[i]), input.searchSeconds);

  // The store's own vector query (what memory.search runs first, before its keyword search and entity
  // boosts), with topK 10 and the agent filter, on embeddings computed beforehand.
  const embeddings = [];
  for (const q of queries.slice(0, searched.count))
    embeddings.push(await memory.embedder.embed(q, "search"));
  const vectorOnly = await pool(
    embeddings.length,
    1,
    (i) => memory.vectorStore.search(embeddings[i], 10, { agent_id: agentId }),
    input.searchSeconds,
  );

  if (process.stderr.isTTY) process.stderr.write("\n");
  process.stdout.write(
    JSON.stringify({
      store: input.store,
      hnsw: input.store === "pgvector" ? Boolean(input.hnsw) : undefined,
      added: contents.length + single.count,
      batchPerSecond: contents.length / batch.seconds,
      single,
      search: searched,
      vectorOnly,
    }) + "\n",
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
// mem0 keeps a pg client per collection (memories and entities) open with no close on Memory.
process.exit(0);
