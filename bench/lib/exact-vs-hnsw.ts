// The production VECTOR query (tenant transaction, agent filter, per-transaction HNSW settings) timed inside
// PostgreSQL twice: as recall runs it, and as an exact scan of the same filtered query (index scans off).
import { limitRecallTransaction } from "../../src/data/queries/recall-common";
import { setHnswSearch, vectorSearch } from "../../src/data/queries/recall-vector";
import { withTenant } from "../../src/data/with-tenant";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";
import type { BenchApp } from "./bench-app";
import { AGENT } from "./load-corpus";
import { percentile } from "./stats";

export type ExactVsHnsw = { queries: number; hnswP50: number; hnswP95: number; exactP50: number; exactP95: number; recallAt10: number };

async function topTen(app: BenchApp, vector: number[], exact: boolean): Promise<{ ids: string[]; ms: number }> {
  const { config, db } = app.deps;
  return withTenant(db, app.orgId, async (tx) => {
    await limitRecallTransaction(tx, 60_000);
    await setHnswSearch(tx, config.RECALL_HNSW_EF_SEARCH, config.RECALL_HNSW_MAX_SCAN_TUPLES);
    if (exact) await tx`SELECT set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`;
    const started = performance.now();
    const rows = await vectorSearch(tx, { filter: { orgId: app.orgId, agentId: AGENT }, vector, dimensions: 1536, limit: 10, efSearch: config.RECALL_HNSW_EF_SEARCH, maxScanTuples: config.RECALL_HNSW_MAX_SCAN_TUPLES });
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
    const a = await topTen(app, v, false);
    const b = await topTen(app, v, true);
    hnsw.push(a.ms);
    exact.push(b.ms);
    const truth = new Set(b.ids);
    overlap += a.ids.filter((id) => truth.has(id)).length / Math.max(1, b.ids.length);
  }
  hnsw.sort((x, y) => x - y);
  exact.sort((x, y) => x - y);
  return { queries: vectors.length, hnswP50: percentile(hnsw, 50), hnswP95: percentile(hnsw, 95), exactP50: percentile(exact, 50), exactP95: percentile(exact, 95), recallAt10: overlap / vectors.length };
}
