// VECTOR recall: cosine distance over current versions. The index shape repeats the HNSW index
// expression and predicate of sql/0134 and ensureVectorIndex verbatim, with the dimension as a
// constant, so the planner can use the index; pgvector's iterative scan keeps walking the graph
// past rows the agent/tenant filters drop. The graph orders by half-precision vectors (half the
// pages to read per search, docs/benchmarks.md); the distance returned and the final order are
// computed on the stored full-precision embedding.
//
// Two shapes serve the same request, and a cost estimate picks one (vectorShape). The exact shape
// sorts the agent's rows (from the agent btree, each stored embedding read once): cheap for a small
// agent, and the only sane plan for an agent that holds a sliver of the graph (1,000 memories among
// 1M), where an iterative scan would walk through thousands of other agents' rows per match. The
// index shape walks the graph: cheap whenever the agent holds a good share of it, and the only
// option for a large agent. An iterative index scan gives up after hnsw.max_scan_tuples: when a
// selective filter leaves fewer than `limit` rows in that stretch of the graph, the exact shape
// answers instead, so a filter never silently shortens the result.
import type { Tx } from "../../pools";
import { checkedDimensions, vectorIndexName } from "../memories/vector-index";
import {
  allowGenericPlans,
  cancellable,
  candidateFilter,
  pipelined,
  recallColumns,
  restoreCustomPlans,
  type RecallFilterInput,
  type RecallRow,
} from "./common";

export type VectorSearch = {
  filter: RecallFilterInput;
  vector: number[];
  dimensions: number;
  /**
   * The embedding generation's model (recall always names it): vectors of another model are
   * skipped.
   */
  model?: string;
  limit: number;
  efSearch: number;
  maxScanTuples: number;
  /**
   * Agents with more current memories than this always go through the index
   * (RECALL_VECTOR_EXACT_MAX_ROWS).
   */
  exactMaxRows: number;
  /** Recent shape decisions (domain/recall/vector-shapes.ts); without it every search estimates. */
  hints?: VectorShapeHints;
};

export type VectorShape = "exact" | "index";

export type VectorShapeHints = {
  get(orgId: string, agentId: string, dimensions: number): VectorShape | undefined;
  put(orgId: string, agentId: string, dimensions: number, shape: VectorShape): void;
};

/**
 * The HNSW search settings of this transaction. `preferIndex` also prices sorts and heap scans out
 * (and JIT off, which the priced-out costs would otherwise trigger), in the same round trip.
 */
export async function setHnswSearch(
  tx: Tx,
  efSearch: number,
  maxScanTuples: number,
  options: { preferIndex?: boolean } = {},
): Promise<void> {
  const preferIndex = options.preferIndex ? "off" : "on";
  await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
    set_config('hnsw.ef_search', ${String(efSearch)}, true),
    set_config('hnsw.max_scan_tuples', ${String(maxScanTuples)}, true),
    set_config('enable_sort', ${preferIndex}, true), set_config('enable_seqscan', ${preferIndex}, true),
    set_config('enable_bitmapscan', ${preferIndex}, true)${options.preferIndex ? tx`, set_config('jit', 'off', true)` : tx``}`;
}

/**
 * Nearest neighbours: exact or through the index, whichever the estimate says is cheaper; never
 * fewer than exist.
 */
export async function vectorSearch(
  tx: Tx,
  s: VectorSearch,
  signal?: AbortSignal,
): Promise<RecallRow[]> {
  // Generic plans: the shape is chosen here, not by the planner (about 1 ms of planning a recall).
  allowGenericPlans(tx);
  try {
    if ((await vectorShape(tx, s)) === "exact")
      return await cancellable(nearestQuery(tx, s, "exact"), signal);
    // Pricing sorts and heap scans out for this one statement leaves the HNSW scan as the cheapest
    // plan, whatever the statistics say: right after a bulk load into a new agent they still
    // estimate it at a row or two, and the planner then sorts all 100k rows (3.7 s instead of ~20
    // ms, docs/benchmarks.md).
    await setHnswSearch(tx, Math.max(s.efSearch, s.limit), s.maxScanTuples, { preferIndex: true });
    // Started now, so the settings below are sent after it, not before (a query runs when first
    // awaited).
    const search = cancellable(nearestQuery(tx, s, "index").execute(), signal);
    pipelined(
      tx,
      tx`SELECT set_config('enable_sort', 'on', true), set_config('enable_seqscan', 'on', true),
      set_config('enable_bitmapscan', 'on', true)`,
    );
    const rows = await search;
    return rows.length >= s.limit ? rows : await cancellable(nearestQuery(tx, s, "exact"), signal);
  } finally {
    restoreCustomPlans(tx);
  }
}

/**
 * Cost of each shape in microseconds, measured on this machine's build of pgvector
 * (docs/recall.md): the exact sort reads and scores every row of the agent; the index walk visits
 * about max(ef_search, limit ÷ share) graph entries, where share is the agent's part of everything
 * the graph holds (the others' entries are walked past).
 */
const EXACT_ROW_US = 8;
const GRAPH_VISIT_US = 10;

export function cheaperShape(
  agentRows: number,
  graphRows: number,
  s: Pick<VectorSearch, "limit" | "efSearch">,
): VectorShape {
  const share = agentRows / Math.max(graphRows, agentRows, 1);
  const exact = EXACT_ROW_US * agentRows;
  const index = GRAPH_VISIT_US * Math.max(s.efSearch, s.limit / Math.max(share, 1e-9));
  return exact <= index ? "exact" : "index";
}

/**
 * One statement: an index-only scan of at most exactMaxRows + 1 entries of memories_agent_current,
 * and the graph's size from the catalog (as of the last VACUUM, ANALYZE or index build; unknown
 * counts as the agent alone, which favours the index).
 */
async function vectorShape(tx: Tx, s: VectorSearch): Promise<VectorShape> {
  const f = s.filter;
  const hinted = s.hints?.get(f.orgId, f.agentId, s.dimensions);
  if (hinted) return hinted;
  const [row] = await tx<{ n: number; graph: number | null }[]>`
    SELECT (SELECT count(*)::int FROM (
        SELECT 1 FROM memories WHERE org_id = ${f.orgId} AND agent_id = ${f.agentId} AND valid_to IS NULL
        LIMIT ${s.exactMaxRows + 1}
      ) AS current_rows) AS n,
      (SELECT reltuples::float8 FROM pg_class WHERE oid = to_regclass(${vectorIndexName(s.dimensions)})) AS graph`;
  const shape =
    row!.n > s.exactMaxRows ? "index" : cheaperShape(row!.n, Math.max(row!.graph ?? 0, 0), s);
  s.hints?.put(f.orgId, f.agentId, s.dimensions, shape);
  return shape;
}

/**
 * "index" orders by the halfvec expression the HNSW index is built on and computes the
 * full-precision distance of the `limit` rows it keeps; "exact" orders by the full-precision
 * distance itself (computed once per row, and no index serves it), an exact sort of the filtered
 * rows. Exported for the benchmarks, which time each shape on its own.
 */
export function nearestQuery(tx: Tx, s: VectorSearch, order: "index" | "exact") {
  const literal = JSON.stringify(s.vector);
  // A constant, not a parameter: a type modifier cannot be one, and a generic plan could not prove
  // the partial index's predicate from a parameter.
  const dims = tx.unsafe(String(checkedDimensions(s.dimensions)));
  const distance = tx`embedding::vector(${dims}) <=> ${literal}::vector(${dims})`;
  const where = tx`${candidateFilter(tx, s.filter)} AND embedding_dims = ${dims}${s.model === undefined ? tx`` : tx` AND embedding_model = ${s.model}`}`;
  // Each distance is computed once: the sort refers to the output column (a subquery kept apart by
  // its LIMIT or OFFSET), not to a second copy of the expression that would read the embedding
  // again.
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
  // relaxed_order may return neighbours slightly out of order, and half precision may swap near
  // ties: the outer query re-sorts exactly. The CTEs carry the embedding's TOAST pointer; only the
  // kept rows are read in full precision. The backlog (batch-stored rows not yet in the graph,
  // sql/0134) is scored exactly beside the graph's candidates: usually empty, one probe of its
  // partial index.
  return tx<RecallRow[]>`
    WITH graph AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, embedding FROM memories
      WHERE ${where} AND vector_indexed
      ORDER BY embedding::halfvec(${dims}) <=> ${literal}::halfvec(${dims})
      LIMIT ${s.limit}
    ), backlog AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, embedding FROM memories
      WHERE ${where} AND NOT vector_indexed
    )
    SELECT *, (1 - distance)::real AS score FROM (
      SELECT ${recallColumns(tx)}, ${distance} AS distance FROM (
        SELECT * FROM graph UNION ALL SELECT * FROM backlog
      ) AS candidates OFFSET 0
    ) AS kept
    ORDER BY distance, memory_id
    LIMIT ${s.limit}`;
}
