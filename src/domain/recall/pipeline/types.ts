// The shapes that pass between recall's stages (validate → plan → retrieve → fuse → present).
import type { Ports } from "../../ports/ports";
import type { RecallRow } from "../../../data/queries/recall/common";
import type { InProcessSpend } from "../../budgets/charge";
import type { Generation } from "../../memories/embedding-generations";
import type { FusionPlan, FusionRequest, FusionSummary } from "../fusion";
import type { GraphEvidence } from "../../../data/graph-evidence";
import type { AutoPlan } from "../route-auto";
import type { ConcreteStrategyName, RecallStrategy, StrategyName } from "../strategy";
import type { ParsedTime, TimeWindow } from "../time-expressions";

export type RecallDeps = Pick<
  Ports,
  "config" | "db" | "llm" | "embeddings" | "log" | "queryVectors" | "vectorShapes"
>;

export type RecallInput = {
  agentId: string;
  query: string;
  topK?: number;
  strategy?: StrategyName;
  /** Graph strategies: the event time to read the graph at. */
  asOf?: Date;
  /** CYPHER: values for the query's $parameters. */
  params?: Record<string, unknown>;
  /** Reciprocal-rank fusion of these strategies instead of one strategy (fusion.ts). */
  fusion?: FusionRequest;
  /** Reorder the results by one LLM call after the transaction (rerank.ts). */
  rerank?: boolean;
  /** Attach each turn's neighbouring turns, up to this many on each side (neighbours.ts). */
  context?: { neighbours: number };
  filters?: {
    memoryTypes?: string[];
    metadata?: Record<string, unknown>;
    datasetId?: string;
    createdAfter?: Date;
    createdBefore?: Date;
    occurredAfter?: Date;
    occurredBefore?: Date;
  };
};

export type RoutingMethod = "pinned" | "llm" | "rules";
export type Routing = {
  requested: StrategyName;
  method: RoutingMethod;
  reason: string;
  degraded_from?: ConcreteStrategyName;
};

export type RecallPlan = {
  input: RecallInput;
  topK: number;
  now: Date;
  /** The query's time expression, parsed once for the whole request. */
  time: ParsedTime;
  /**
   * The strategy that runs (pinned), or the one AUTO and fusion name in the response before
   * retrieval.
   */
  strategy: RecallStrategy;
  routing: Routing;
  prepared: unknown;
  queryVector: number[] | null;
  /**
   * The embedding generation the query vector belongs to (the tenant's serving one when planned).
   */
  generation: Generation;
  /**
   * The local embedder's spend, charged inside the recall transaction (null: already metered, or
   * cached).
   */
  charge: InProcessSpend | null;
  /** Fusion requested by the client (fusion.ts). */
  fusion?: FusionPlan;
  /** AUTO: the retrievers, their weights and the time signal (route-auto.ts). */
  auto?: AutoPlan;
};

/** A row as it leaves retrieval: which retrievers found it. */
export type FoundRow = RecallRow & { retrievers: ConcreteStrategyName[] };

export type RecallResult = Omit<RecallRow, never> & { retrievers: ConcreteStrategyName[] };

export type RecallOutcome = {
  results: RecallResult[];
  strategy: ConcreteStrategyName;
  routing: Routing;
  window: TimeWindow | null;
  note: string | null;
  top_k: number;
  redactions: number;
  /** Graph strategies only. */
  graph?: GraphEvidence;
  /** Fused recalls (requested, or AUTO): the strategies that ran, and k. */
  fusion?: FusionSummary;
};
