// Fills a bench app through the real batch route and measures batch and single store throughput,
// and how fast svc.generate_embedding's graphing step then puts the batches' vectors into the HNSW
// graph.
import { progressReporter } from "../../src/cli/progress";
import { graphBacklog } from "../../src/domain/memories/vector-backlog";
import {
  GRAPH_CHUNK,
  GRAPH_PARALLEL,
  MAX_GRAPH_CHUNKS_PER_RUN,
} from "../../src/queue/tasks/svc.generate_embedding";
import { batchShape, type BenchApp } from "./bench-app";
import { loop, type Latency } from "./stats";

export const AGENT = "bench-agent";

export type Loaded = {
  /**
   * Memories per second through POST /v1/memories/batch (the route's answer, the graph left for
   * later).
   */
  perSecond: number;
  /**
   * Memories per second into the HNSW graph afterwards, one worker as svc.generate_embedding runs
   * it.
   */
  graphPerSecond: number;
  ids: string[];
};

/**
 * Loads, then empties the vector backlog the way the worker would (the bench runs none), so what is
 * measured next is recall in its steady state; `graph: false` leaves that to a worker the caller
 * runs.
 */
export async function loadCorpus(
  app: BenchApp,
  contents: string[],
  concurrency = 2,
  options: { graph?: boolean } = {},
): Promise<Loaded> {
  const { field, max } = await batchShape(app);
  const size = Math.min(max, 500);
  const chunks = Math.ceil(contents.length / size);
  const ids: string[] = [];
  let stored = 0;
  const progress = progressReporter("load", "memories");
  const started = performance.now();
  await loop(chunks, concurrency, 3600, async (i) => {
    const items = contents
      .slice(i * size, (i + 1) * size)
      .map((content) => ({ agent_id: AGENT, content, memory_type: "semantic" }));
    const res = await app.call("POST", "/v1/memories/batch", { [field]: items });
    if (res.status >= 300)
      throw new Error(
        `batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    stored += items.length;
    progress.update(stored, contents.length);
    for (const m of res.body.memories ?? res.body.results ?? res.body.items ?? [])
      if (m?.memory_id) ids.push(m.memory_id);
    return true;
  });
  progress.stop();
  const perSecond = stored / ((performance.now() - started) / 1000);
  return {
    perSecond,
    graphPerSecond: options.graph === false ? NaN : await emptyVectorBacklog(app),
    ids,
  };
}

/** Graphs the tenants' waiting vectors as one worker would; returns memories per second. */
export async function emptyVectorBacklog(
  app: BenchApp,
  orgIds: string[] = [app.orgId],
): Promise<number> {
  const started = performance.now();
  let graphed = 0;
  for (const orgId of orgIds) {
    for (;;) {
      const step = await graphBacklog(
        app.deps.db,
        orgId,
        GRAPH_CHUNK,
        MAX_GRAPH_CHUNKS_PER_RUN,
        GRAPH_PARALLEL,
      );
      graphed += step.graphed;
      if (step.remaining === 0) break;
    }
  }
  return graphed / ((performance.now() - started) / 1000);
}

export function storeSingles(app: BenchApp, contents: string[], concurrency = 8): Promise<Latency> {
  return loop(
    contents.length,
    concurrency,
    60,
    async (i) =>
      (
        await app.call("POST", "/v1/memories", {
          agent_id: AGENT,
          content: contents[i],
          memory_type: "semantic",
        })
      ).status === 201,
  );
}

export function recallLoop(
  app: BenchApp,
  queries: string[],
  concurrency: number,
  strategy: string,
  maxSeconds = 30,
): Promise<Latency> {
  return loop(
    queries.length,
    concurrency,
    maxSeconds,
    async (i) =>
      (
        await app.call("POST", "/v1/memories/recall", {
          agent_id: AGENT,
          query: queries[i],
          top_k: 10,
          strategy,
        })
      ).status === 200,
  );
}
