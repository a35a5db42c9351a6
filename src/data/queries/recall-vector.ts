// VECTOR recall: cosine distance over current versions. For 1536 dimensions the query repeats the
// HNSW index expression and predicate of sql/0130 verbatim so the planner can use it; pgvector's
// iterative scan keeps walking the graph past rows the agent/tenant filters drop. The index orders by
// half-precision vectors (half the pages to read per search, docs/benchmarks.md); the distance returned
// and the final order are computed on the stored full-precision embedding.
import type { Tx } from "../pools";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type VectorSearch = {
  filter: RecallFilterInput;
  vector: number[];
  dimensions: number;
  limit: number;
  efSearch: number;
  maxScanTuples: number;
};

export const INDEXED_DIMENSIONS = 1536;

export async function setHnswSearch(tx: Tx, efSearch: number, maxScanTuples: number): Promise<void> {
  await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
    set_config('hnsw.ef_search', ${String(efSearch)}, true),
    set_config('hnsw.max_scan_tuples', ${String(maxScanTuples)}, true)`;
}

export function vectorSearch(tx: Tx, s: VectorSearch) {
  const literal = JSON.stringify(s.vector);
  // relaxed_order may return neighbours slightly out of order: the outer query re-sorts exactly.
  if (s.dimensions === INDEXED_DIMENSIONS) {
    return tx<RecallRow[]>`
      WITH nearest AS MATERIALIZED (
        SELECT ${recallColumns(tx)}, embedding::vector(1536) <=> ${literal}::vector(1536) AS distance
        FROM memories
        WHERE ${candidateFilter(tx, s.filter)} AND embedding_dims = 1536
        ORDER BY embedding::halfvec(1536) <=> ${literal}::halfvec(1536)
        LIMIT ${s.limit}
      )
      SELECT *, (1 - distance)::real AS score FROM nearest ORDER BY distance, memory_id`;
  }
  return tx<RecallRow[]>`
    SELECT ${recallColumns(tx)}, (1 - (embedding <=> ${literal}::vector))::real AS score
    FROM memories
    WHERE ${candidateFilter(tx, s.filter)} AND embedding_dims = ${s.dimensions}
    ORDER BY embedding <=> ${literal}::vector, memory_id
    LIMIT ${s.limit}`;
}
