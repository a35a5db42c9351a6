// VECTOR recall: cosine distance over current versions. The query repeats the HNSW index expression and
// predicate of sql/0130 and ensureVectorIndex verbatim, with the dimension as a constant, so the planner can
// use the index; pgvector's iterative scan keeps walking the graph past rows the agent/tenant filters drop.
// The index orders by half-precision vectors (half the pages to read per search, docs/benchmarks.md); the
// distance returned and the final order are computed on the stored full-precision embedding.
//
// Two shapes serve the same request. An agent with many memories is searched through the HNSW index (the
// agent and tenant conditions post-filter the ordered index scan). An agent with few (1,000 memories among
// 1M) is sorted exactly: its rows come from the agent btree and each stored embedding is read once, which
// beats walking a graph that mostly holds other agents' rows. A bounded count on the agent btree picks
// the shape. An iterative index scan gives up after hnsw.max_scan_tuples: when a selective filter leaves
// fewer than `limit` rows in that stretch of the graph, the exact shape answers instead, so a filter never
// silently shortens the result.
import type { Tx } from "../pools";
import { checkedDimensions } from "./memories-vector-index";
import { cancellable, candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type VectorSearch = {
  filter: RecallFilterInput;
  vector: number[];
  dimensions: number;
  /** The embedding generation's model (recall always names it): vectors of another model are skipped. */
  model?: string;
  limit: number;
  efSearch: number;
  maxScanTuples: number;
  /** An agent with at most this many current memories is sorted exactly (RECALL_VECTOR_EXACT_MAX_ROWS). */
  exactMaxRows: number;
};

/**
 * The HNSW search settings of this transaction. `preferIndex` also prices sorts and heap scans out (and
 * JIT off, which the priced-out costs would otherwise trigger), in the same round trip.
 */
export async function setHnswSearch(tx: Tx, efSearch: number, maxScanTuples: number, options: { preferIndex?: boolean } = {}): Promise<void> {
  const preferIndex = options.preferIndex ? "off" : "on";
  await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
    set_config('hnsw.ef_search', ${String(efSearch)}, true),
    set_config('hnsw.max_scan_tuples', ${String(maxScanTuples)}, true),
    set_config('enable_sort', ${preferIndex}, true), set_config('enable_seqscan', ${preferIndex}, true),
    set_config('enable_bitmapscan', ${preferIndex}, true)${options.preferIndex ? tx`, set_config('jit', 'off', true)` : tx``}`;
}

/** Nearest neighbours: exact for a small agent; through the index otherwise, never fewer than exist. */
export async function vectorSearch(tx: Tx, s: VectorSearch, signal?: AbortSignal): Promise<RecallRow[]> {
  if (await agentIsSmall(tx, s.filter, s.exactMaxRows)) return cancellable(nearestQuery(tx, s, "exact"), signal);
  // The agent is known to be large, whatever the statistics say: right after a bulk load into a new agent
  // they still estimate it at a row or two, and the planner then sorts all 100k rows (3.7 s instead of
  // ~20 ms, docs/benchmarks.md). Pricing sorts and heap scans out for this one statement leaves the HNSW
  // scan as the cheapest plan. The HNSW settings go in the same round trip; a small agent needs none.
  await setHnswSearch(tx, Math.max(s.efSearch, s.limit), s.maxScanTuples, { preferIndex: true });
  const rows = await cancellable(nearestQuery(tx, s, "index"), signal);
  await tx`SELECT set_config('enable_sort', 'on', true), set_config('enable_seqscan', 'on', true),
    set_config('enable_bitmapscan', 'on', true)`;
  return rows.length >= s.limit ? rows : cancellable(nearestQuery(tx, s, "exact"), signal);
}

/** An index-only scan of at most maxRows + 1 entries of memories_agent_current. */
async function agentIsSmall(tx: Tx, f: RecallFilterInput, maxRows: number): Promise<boolean> {
  const [row] = await tx<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM memories WHERE org_id = ${f.orgId} AND agent_id = ${f.agentId} AND valid_to IS NULL
      LIMIT ${maxRows + 1}
    ) AS current_rows`;
  return row!.n <= maxRows;
}

/**
 * "index" orders by the halfvec expression the HNSW index is built on and computes the full-precision
 * distance of the `limit` rows it keeps; "exact" orders by the full-precision distance itself (computed
 * once per row, and no index serves it), an exact sort of the filtered rows.
 * Exported for the benchmarks, which time each shape on its own.
 */
export function nearestQuery(tx: Tx, s: VectorSearch, order: "index" | "exact") {
  const literal = JSON.stringify(s.vector);
  // A constant, not a parameter: a type modifier cannot be one, and a generic plan could not prove the
  // partial index's predicate from a parameter.
  const dims = tx.unsafe(String(checkedDimensions(s.dimensions)));
  const distance = tx`embedding::vector(${dims}) <=> ${literal}::vector(${dims})`;
  const where = tx`${candidateFilter(tx, s.filter)} AND embedding_dims = ${dims}${s.model === undefined ? tx`` : tx` AND embedding_model = ${s.model}`}`;
  // Each distance is computed once: the sort refers to the output column (a subquery kept apart by its
  // LIMIT or OFFSET), not to a second copy of the expression that would read the embedding again.
  if (order === "exact") {
    return tx<RecallRow[]>`
      SELECT *, (1 - distance)::real AS score FROM (
        SELECT ${recallColumns(tx)}, ${distance} AS distance FROM memories
        WHERE ${where}
        ORDER BY distance, memory_id
        LIMIT ${s.limit}
      ) AS nearest
      ORDER BY distance, memory_id`;
  }
  // relaxed_order may return neighbours slightly out of order: the outer query re-sorts exactly. The CTE
  // carries the embedding's TOAST pointer; only the kept rows are read in full precision.
  return tx<RecallRow[]>`
    WITH nearest AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, embedding FROM memories
      WHERE ${where}
      ORDER BY embedding::halfvec(${dims}) <=> ${literal}::halfvec(${dims})
      LIMIT ${s.limit}
    )
    SELECT *, (1 - distance)::real AS score FROM (
      SELECT ${recallColumns(tx)}, ${distance} AS distance FROM nearest OFFSET 0
    ) AS kept
    ORDER BY distance, memory_id`;
}
