// Recall: result bounds, query size, time budget and HNSW search effort.
import { Type as T } from "@sinclair/typebox";

export const recallSection = {
  RECALL_TOP_K_DEFAULT: T.Integer({
    default: 10,
    minimum: 1,
    maximum: 100,
    description: "top_k when a recall request gives none",
  }),
  RECALL_TOP_K_MAX: T.Integer({
    default: 100,
    minimum: 1,
    maximum: 1000,
    description: "Largest top_k accepted; larger values are a 422",
  }),
  RECALL_QUERY_MAX_CHARS: T.Integer({ default: 4000, minimum: 16, maximum: 100000 }),
  RECALL_TIMEOUT_MS: T.Integer({
    default: 5000,
    minimum: 100,
    description: "statement_timeout of a recall transaction",
  }),
  RECALL_HNSW_EF_SEARCH: T.Integer({
    default: 100,
    minimum: 10,
    maximum: 1000,
    description: "hnsw.ef_search for VECTOR (raised to top_k when smaller)",
  }),
  RECALL_VECTOR_EXACT_MAX_ROWS: T.Integer({
    default: 2000,
    minimum: 0,
    maximum: 100000,
    description:
      "VECTOR may sort an agent with at most this many current memories exactly (agent btree, no HNSW), and does when a cost estimate from the agent's share of the index says so (docs/recall.md); larger agents always go through the HNSW index",
  }),
  RECALL_HNSW_MAX_SCAN_TUPLES: T.Integer({
    default: 20000,
    minimum: 100,
    description: "hnsw.max_scan_tuples: how far iterative scans may go past filtered-out rows",
  }),
};
