// The same top-10 query twice inside PostgreSQL: through the HNSW index, and as an exact scan with index scans off.
import { withTenantRead } from "../../src/data/with-tenant";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";
import type { BenchApp } from "./bench-app";
import { percentile } from "./stats";

export type ExactVsHnsw = { queries: number; hnswP50: number; hnswP95: number; exactP50: number; exactP95: number; recallAt10: number };

async function topTen(app: BenchApp, vector: string, exact: boolean): Promise<{ ids: string[]; ms: number }> {
  return withTenantRead(app.deps.db, app.orgId, async (tx) => {
    if (exact) await tx.unsafe("SET LOCAL enable_indexscan = off");
    const started = performance.now();
    // 1536 is written as a literal, not a parameter: after five executions PostgreSQL may switch to a
    // generic plan, which can only use the partial HNSW index when its predicate is provable from constants.
    const rows = await tx<{ memory_id: string }[]>`
      SELECT memory_id FROM memories
      WHERE valid_to IS NULL AND embedding_dims = 1536
      ORDER BY (embedding::vector(1536)) <=> ${vector}::vector(1536)
      LIMIT 10`;
    return { ids: rows.map((r) => r.memory_id), ms: performance.now() - started };
  });
}

export async function exactVsHnsw(app: BenchApp, queries: string[]): Promise<ExactVsHnsw> {
  const dims = app.deps.config.EMBEDDING_DIMENSIONS;
  if (dims !== 1536) throw new Error("the exact-vs-HNSW comparison uses the 1536-dimension index; run the bench with EMBEDDING_DIMENSIONS=1536");
  const { vectors } = await createLocalEmbedder(dims).embed(queries, { orgId: app.orgId });
  const hnsw: number[] = [];
  const exact: number[] = [];
  let overlap = 0;
  for (const v of vectors) {
    const literal = `[${v.join(",")}]`;
    const a = await topTen(app, literal, false);
    const b = await topTen(app, literal, true);
    hnsw.push(a.ms);
    exact.push(b.ms);
    const truth = new Set(b.ids);
    overlap += a.ids.filter((id) => truth.has(id)).length / Math.max(1, b.ids.length);
  }
  hnsw.sort((x, y) => x - y);
  exact.sort((x, y) => x - y);
  return { queries: vectors.length, hnswP50: percentile(hnsw, 50), hnswP95: percentile(hnsw, 95), exactP50: percentile(exact, 50), exactP95: percentile(exact, 95), recallAt10: overlap / vectors.length };
}
