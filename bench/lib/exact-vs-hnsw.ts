// The production VECTOR query (tenant transaction, agent filter, per-transaction HNSW settings)
// timed inside PostgreSQL against the exact answer: the same filtered query ordered by the
// full-precision distance, which no index serves (an exact sort of the agent's rows, through the
// agent btree or a scan). With `withFloatIndex`, also the pre-0130 shape (ordered by a
// full-precision HNSW index the caller created), so one run compares both indexes on the same
// corpus. Each query names its tenant and agent (`targets`, one per query), so the 1M tier measures
// small agents among many.
import {
  candidateFilter,
  limitRecallTransaction,
  recallColumns,
} from "../../src/data/queries/recall/common";
import { nearestQuery, setHnswSearch, vectorSearch } from "../../src/data/queries/recall/vector";
import { withTenant } from "../../src/data/with-tenant";
import type { Tx } from "../../src/data/pools";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";
import type { BenchApp } from "./bench-app";
import { AGENT } from "./load-corpus";
import { percentile } from "./stats";

export type Timing = { p50: number; p95: number; recallAt10: number };
export type ExactVsHnsw = {
  queries: number;
  hnswP50: number;
  hnswP95: number;
  exactP50: number;
  exactP95: number;
  recallAt10: number;
  floatIndex?: Timing;
};
export type Target = { orgId: string; agentId: string };

type Shape = "production" | "float" | "exact";

/** The VECTOR query as it was before sql/0130: ordered by the full-precision expression. */
function floatShape(tx: Tx, target: Target, vector: number[]) {
  const literal = JSON.stringify(vector);
  return tx<{ memory_id: string }[]>`
    WITH nearest AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, embedding::vector(1536) <=> ${literal}::vector(1536) AS distance
      FROM memories
      WHERE ${candidateFilter(tx, target)} AND embedding_dims = 1536
      ORDER BY embedding::vector(1536) <=> ${literal}::vector(1536)
      LIMIT 10
    )
    SELECT *, (1 - distance)::real AS score FROM nearest ORDER BY distance, memory_id`;
}

async function topTen(
  app: BenchApp,
  target: Target,
  vector: number[],
  shape: Shape,
): Promise<{ ids: string[]; ms: number }> {
  const { config, db } = app.deps;
  return withTenant(db, target.orgId, async (tx) => {
    await limitRecallTransaction(tx, 120_000);
    await setHnswSearch(tx, config.RECALL_HNSW_EF_SEARCH, config.RECALL_HNSW_MAX_SCAN_TUPLES);
    // The exact shape orders by an expression only the pre-0130 index serves; index scans off keeps
    // that one out too (bitmap scans of the agent btree stay allowed).
    if (shape === "exact") await tx`SELECT set_config('enable_indexscan', 'off', true)`;
    const search = {
      filter: { orgId: target.orgId, agentId: target.agentId },
      vector,
      dimensions: 1536,
      limit: 10,
      efSearch: config.RECALL_HNSW_EF_SEARCH,
      maxScanTuples: config.RECALL_HNSW_MAX_SCAN_TUPLES,
      exactMaxRows: config.RECALL_VECTOR_EXACT_MAX_ROWS,
    };
    const started = performance.now();
    const rows =
      shape === "production"
        ? await vectorSearch(tx, search)
        : shape === "exact"
          ? await nearestQuery(tx, search, "exact")
          : await floatShape(tx, target, vector);
    return { ids: rows.map((r) => r.memory_id), ms: performance.now() - started };
  });
}

const overlap = (found: string[], truth: Set<string>) =>
  found.filter((id) => truth.has(id)).length / Math.max(1, truth.size);

function summary(ms: number[], recall: number, n: number): Timing {
  ms.sort((x, y) => x - y);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), recallAt10: recall / n };
}

export async function exactVsHnsw(
  app: BenchApp,
  queries: string[],
  withFloatIndex = false,
  targets?: Target[],
): Promise<ExactVsHnsw> {
  const dims = app.deps.config.EMBEDDING_DIMENSIONS;
  if (dims !== 1536)
    throw new Error(
      "the exact-vs-HNSW comparison uses the 1536-dimension index; run the bench with EMBEDDING_DIMENSIONS=1536",
    );
  const { vectors } = await createLocalEmbedder(dims).embed(queries, { orgId: app.orgId });
  const hnsw: number[] = [],
    exact: number[] = [],
    float: number[] = [];
  let hnswRecall = 0,
    floatRecall = 0;
  for (const [i, v] of vectors.entries()) {
    const target = targets?.[i] ?? { orgId: app.orgId, agentId: AGENT };
    const b = await topTen(app, target, v, "exact");
    exact.push(b.ms);
    const truth = new Set(b.ids);
    // Alternate which index goes first after the exact scan has churned the buffer cache.
    const order: Shape[] = !withFloatIndex
      ? ["production"]
      : i % 2
        ? ["float", "production"]
        : ["production", "float"];
    for (const shape of order) {
      const r = await topTen(app, target, v, shape);
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
  return {
    queries: vectors.length,
    hnswP50: h.p50,
    hnswP95: h.p95,
    exactP50: e.p50,
    exactP95: e.p95,
    recallAt10: h.recallAt10,
    ...(withFloatIndex ? { floatIndex: summary(float, floatRecall, vectors.length) } : {}),
  };
}
