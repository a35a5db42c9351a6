// The production VECTOR query (tenant transaction, agent filter, per-transaction HNSW settings) timed inside
// PostgreSQL against the exact answer: the same filtered query over the stored full-precision embeddings
// with index scans off. With `withFloatIndex`, also the pre-0130 shape (ordered by a full-precision HNSW
// index the caller created), so one run compares both indexes on the same corpus.
import { candidateFilter, limitRecallTransaction, recallColumns } from "../../src/data/queries/recall-common";
import { setHnswSearch, vectorSearch } from "../../src/data/queries/recall-vector";
import { withTenant } from "../../src/data/with-tenant";
import type { Tx } from "../../src/data/pools";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";
import type { BenchApp } from "./bench-app";
import { AGENT } from "./load-corpus";
import { percentile } from "./stats";

export type Timing = { p50: number; p95: number; recallAt10: number };
export type ExactVsHnsw = { queries: number; hnswP50: number; hnswP95: number; exactP50: number; exactP95: number; recallAt10: number; floatIndex?: Timing };

type Shape = "production" | "float" | "exact";

/** The VECTOR query as it was before sql/0130: ordered by the full-precision expression. */
function floatShape(tx: Tx, orgId: string, vector: number[]) {
  const literal = JSON.stringify(vector);
  return tx<{ memory_id: string }[]>`
    WITH nearest AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, embedding::vector(1536) <=> ${literal}::vector(1536) AS distance
      FROM memories
      WHERE ${candidateFilter(tx, { orgId, agentId: AGENT })} AND embedding_dims = 1536
      ORDER BY embedding::vector(1536) <=> ${literal}::vector(1536)
      LIMIT 10
    )
    SELECT *, (1 - distance)::real AS score FROM nearest ORDER BY distance, memory_id`;
}

async function topTen(app: BenchApp, vector: number[], shape: Shape): Promise<{ ids: string[]; ms: number }> {
  const { config, db } = app.deps;
  return withTenant(db, app.orgId, async (tx) => {
    await limitRecallTransaction(tx, 60_000);
    await setHnswSearch(tx, config.RECALL_HNSW_EF_SEARCH, config.RECALL_HNSW_MAX_SCAN_TUPLES);
    if (shape === "exact") await tx`SELECT set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`;
    const started = performance.now();
    const rows = shape === "production"
      ? await vectorSearch(tx, { filter: { orgId: app.orgId, agentId: AGENT }, vector, dimensions: 1536, limit: 10, efSearch: config.RECALL_HNSW_EF_SEARCH, maxScanTuples: config.RECALL_HNSW_MAX_SCAN_TUPLES })
      : await floatShape(tx, app.orgId, vector);
    return { ids: rows.map((r) => r.memory_id), ms: performance.now() - started };
  });
}

const overlap = (found: string[], truth: Set<string>) => found.filter((id) => truth.has(id)).length / Math.max(1, truth.size);

function summary(ms: number[], recall: number, n: number): Timing {
  ms.sort((x, y) => x - y);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), recallAt10: recall / n };
}

export async function exactVsHnsw(app: BenchApp, queries: string[], withFloatIndex = false): Promise<ExactVsHnsw> {
  const dims = app.deps.config.EMBEDDING_DIMENSIONS;
  if (dims !== 1536) throw new Error("the exact-vs-HNSW comparison uses the 1536-dimension index; run the bench with EMBEDDING_DIMENSIONS=1536");
  const { vectors } = await createLocalEmbedder(dims).embed(queries, { orgId: app.orgId });
  const hnsw: number[] = [], exact: number[] = [], float: number[] = [];
  let hnswRecall = 0, floatRecall = 0;
  for (const [i, v] of vectors.entries()) {
    const b = await topTen(app, v, "exact");
    exact.push(b.ms);
    const truth = new Set(b.ids);
    // Alternate which index goes first after the exact scan has churned the buffer cache.
    const order: Shape[] = !withFloatIndex ? ["production"] : i % 2 ? ["float", "production"] : ["production", "float"];
    for (const shape of order) {
      const r = await topTen(app, v, shape);
      if (shape === "production") {
        hnsw.push(r.ms);
        hnswRecall += overlap(r.ids, truth);
      } else {
        float.push(r.ms);
        floatRecall += overlap(r.ids, truth);
      }
    }
  }
  const h = summary(hnsw, hnswRecall, vectors.length);
  const e = summary(exact, 0, vectors.length);
  return { queries: vectors.length, hnswP50: h.p50, hnswP95: h.p95, exactP50: e.p50, exactP95: e.p95, recallAt10: h.recallAt10, ...(withFloatIndex ? { floatIndex: summary(float, floatRecall, vectors.length) } : {}) };
}
