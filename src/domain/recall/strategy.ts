// The RecallStrategy interface and the ten strategy names of the spec.
import type { RecallFilterInput, RecallRow } from "../../data/queries/recall-common";
import type { Tx } from "../../data/pools";
import type { TimeWindow } from "./time-expressions";

export const STRATEGY_NAMES = ["AUTO", "VECTOR", "LEXICAL", "GRAPH", "TRIPLET", "TRACE", "TEMPORAL", "ASK", "CYPHER", "CODE"] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];
export type ConcreteStrategyName = Exclude<StrategyName, "AUTO">;

export type RecallSearch = {
  filter: RecallFilterInput;
  query: string;
  topK: number;
  now: Date;
  /** The query embedding, present when the strategy declared `needsEmbedding`. */
  queryVector: number[] | null;
  dimensions: number;
  efSearch: number;
  maxScanTuples: number;
  signal?: AbortSignal;
};

export type StrategyOutcome = {
  rows: RecallRow[];
  /** TEMPORAL: the window the query was read as (null bounds are open). */
  window?: TimeWindow | null;
  /** A short note on how the strategy ran (e.g. "trigram fallback added 3 results"). */
  note?: string;
};

export interface RecallStrategy {
  readonly name: ConcreteStrategyName;
  /** One line for the OpenAPI description and the LLM router's menu. */
  readonly description: string;
  readonly needsEmbedding: boolean;
  /** Runs inside the recall's tenant transaction; read-only on memories. */
  run(tx: Tx, search: RecallSearch): Promise<StrategyOutcome>;
}
