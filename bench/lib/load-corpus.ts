// Fills a bench app through the real batch route and measures batch and single store throughput.
import { progressReporter } from "../../src/cli/progress";
import { batchShape, type BenchApp } from "./bench-app";
import { loop, type Latency } from "./stats";

export const AGENT = "bench-agent";

export async function loadCorpus(app: BenchApp, contents: string[], concurrency = 2): Promise<{ perSecond: number; ids: string[] }> {
  const { field, max } = await batchShape(app);
  const size = Math.min(max, 500);
  const chunks = Math.ceil(contents.length / size);
  const ids: string[] = [];
  let stored = 0;
  const progress = progressReporter("load", "memories");
  const started = performance.now();
  await loop(chunks, concurrency, 3600, async (i) => {
    const items = contents.slice(i * size, (i + 1) * size).map((content) => ({ agent_id: AGENT, content, memory_type: "semantic" }));
    const res = await app.call("POST", "/v1/memories/batch", { [field]: items });
    if (res.status >= 300) throw new Error(`batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    stored += items.length;
    progress.update(stored, contents.length);
    for (const m of res.body.memories ?? res.body.results ?? res.body.items ?? []) if (m?.memory_id) ids.push(m.memory_id);
    return true;
  });
  progress.stop();
  return { perSecond: stored / ((performance.now() - started) / 1000), ids };
}

export function storeSingles(app: BenchApp, contents: string[], concurrency = 8): Promise<Latency> {
  return loop(contents.length, concurrency, 60, async (i) => (await app.call("POST", "/v1/memories", { agent_id: AGENT, content: contents[i], memory_type: "semantic" })).status === 201);
}

export function recallLoop(app: BenchApp, queries: string[], concurrency: number, strategy: string, maxSeconds = 30): Promise<Latency> {
  return loop(queries.length, concurrency, maxSeconds, async (i) => (await app.call("POST", "/v1/memories/recall", { agent_id: AGENT, query: queries[i], top_k: 10, strategy })).status === 200);
}
