// VECTOR recall: cosine distance over current versions. The query repeats the HNSW index expression and
// predicate of sql/0130 and ensureVectorIndex verbatim, with the dimension as a constant, so the planner can
// use the index; pgvector's iterative scan keeps walking the graph past rows the agent/tenant filters drop.
// The index orders by half-precision vectors (half the pages to read per search, docs/benchmarks.md); the
// distance returned and the final order are computed on the stored full-precision embedding.
import type { Tx } from "../pools";
import { checkedDimensions } from "./memories-vector-index";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type VectorSearch = {
  filter: RecallFilterInput;
  vector: number[];
  dimensions: number;
  limit: number;
  efSearch: number;
  maxScanTuples: number;
};

export async function setHnswSearch(tx: Tx, efSearch: number, maxScanTuples: number): Promise<void> {
  await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
    set_config('hnsw.ef_search', ${String(efSearch)}, true),
    set_config('hnsw.max_scan_tuples', ${String(maxScanTuples)}, true)`;
}

export function vectorSearch(tx: Tx, s: VectorSearch) {
  const literal = JSON.stringify(s.vector);
  // A constant, not a parameter: a type modifier cannot be one, and a generic plan could not prove the
  // partial index's predicate from a parameter.
  const dims = tx.unsafe(String(checkedDimensions(s.dimensions)));
  // relaxed_order may return neighbours slightly out of order: the outer query re-sorts exactly.
  return tx<RecallRow[]>`
    WITH nearest AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, embedding::vector(${dims}) <=> ${literal}::vector(${dims}) AS distance
      FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND embedding_dims = ${dims}
      ORDER BY embedding::halfvec(${dims}) <=> ${literal}::halfvec(${dims})
      LIMIT ${s.limit}
    )
    SELECT *, (1 - distance)::real AS score FROM nearest ORDER BY distance, memory_id`;
}
