// The RecallStrategy interface and the ten strategy names of the spec.
import type { Ports } from "../ports/ports";
import type { RecallFilterInput, RecallRow } from "../../data/queries/recall/common";
import type { VectorShapeHints } from "../../data/queries/recall/vector";
import type { Tx } from "../../data/pools";
import type { GraphEvidence } from "../../data/graph-evidence";
import type { TimeWindow } from "./time-expressions";

export const STRATEGY_NAMES = [
  "AUTO",
  "VECTOR",
  "LEXICAL",
  "GRAPH",
  "TRIPLET",
  "TRACE",
  "TEMPORAL",
  "ASK",
  "CYPHER",
  "CODE",
] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];
export type ConcreteStrategyName = Exclude<StrategyName, "AUTO">;

export type RecallSearch = {
  filter: RecallFilterInput;
  query: string;
  topK: number;
  now: Date;
  /** The query embedding, present when the strategy declared `needsEmbedding`. */
  queryVector: number[] | null;
  /**
   * The embedding generation of queryVector: VECTOR reads only vectors of the same model and
   * dimension.
   */
  dimensions: number;
  embeddingModel: string;
  efSearch: number;
  maxScanTuples: number;
  /** VECTOR: agents with more current memories than this always go through the index. */
  exactMaxRows: number;
  /** VECTOR: recent shape decisions per agent; absent, every search estimates. */
  vectorShapes?: VectorShapeHints;
  /** Graph strategies: read the graph as it was at this event time (null: now). */
  asOf: Date | null;
  /** CYPHER: the $parameters of the query. */
  params: Record<string, unknown>;
  /**
   * Graph strategies: traversal bounds (GRAPH_MAX_HOPS, GRAPH_FANOUT, GRAPH_MAX_ROWS); absent: the
   * configuration defaults.
   */
  graphBounds?: GraphBounds;
  signal?: AbortSignal;
};

export type GraphBounds = { maxHops: number; fanout: number; maxRows: number };

/**
 * The configuration defaults of GRAPH_MAX_HOPS, GRAPH_FANOUT and GRAPH_MAX_ROWS
 * (src/config/sections/graph.ts).
 */
export const DEFAULT_GRAPH_BOUNDS: GraphBounds = Object.freeze({
  maxHops: 3,
  fanout: 20,
  maxRows: 5000,
});

export type StrategyOutcome = {
  rows: RecallRow[];
  /** TEMPORAL: the window the query was read as (null bounds are open). */
  window?: TimeWindow | null;
  /** A short note on how the strategy ran (e.g. "trigram fallback added 3 results"). */
  note?: string;
  /** Graph strategies: the facts, paths, answer or table behind the rows. */
  graph?: GraphEvidence;
};

/** What a strategy's prepare step may use; it runs outside the recall transaction. */
export type StrategyEnv = {
  deps: Pick<Ports, "config" | "db" | "llm" | "log">;
  orgId: string;
  signal?: AbortSignal;
};

export interface RecallStrategy<Prepared = unknown> {
  readonly name: ConcreteStrategyName;
  /** One line for the OpenAPI description and the LLM router's menu. */
  readonly description: string;
  readonly needsEmbedding: boolean;
  /**
   * Its queries fix their own shape, so planning them on every call only costs: a recall
   * transaction that runs this strategy alone uses generic plans (limitRecallTransaction). Run by
   * fusion or after a graph answer, it gets the transaction's custom plans.
   */
  readonly genericPlans?: boolean;
  /**
   * Optional, at plan time and outside the recall transaction: checks that must fail before a
   * stream opens (CYPHER's parser), network calls (ASK's LLM), and graph reads in their own READ
   * ONLY tenant transaction. Its result reaches run().
   */
  prepare?(env: StrategyEnv, search: RecallSearch): Promise<Prepared>;
  /** Runs inside the recall's tenant transaction; read-only on memories. */
  run(tx: Tx, search: RecallSearch, prepared: Prepared): Promise<StrategyOutcome>;
}
