// What the graph strategies (GRAPH, TRIPLET, TRACE, ASK, CYPHER) return beside the memory rows: the
// facts, paths, answer or table they found, each citing the memory versions that ground it. Recall
// responses carry it as `graph`; memory-only strategies leave it out.
export type GraphNodeRef = { memo_id: string; name: string; memo_type: string };

export type GraphSource = { memory_id: string; version: number };

/**
 * One edge as a fact, with both timelines: event time (valid/invalid) and system time
 * (created/expired).
 */
export type GraphFact = {
  edge_id: string;
  subject: GraphNodeRef;
  relation: string;
  object: GraphNodeRef;
  fact: string;
  weight: number;
  confidence: number;
  origin: string;
  valid_at: Date | null;
  invalid_at: Date | null;
  created_at: Date;
  expired_at: Date | null;
  expired_reason: string | null;
  sources: GraphSource[];
  /** Relevance within this response, when the strategy ranks facts. */
  score?: number;
};

/** A walk through the graph: memo_ids has one more entry than edge_ids. */
export type GraphPath = {
  memo_ids: string[];
  edge_ids: string[];
  hops: number;
  score: number;
  sources: GraphSource[];
};

export type GraphCitation = {
  memory_id: string;
  version: number;
  edge_id: string | null;
  evidence: string;
};

export type GraphAnswer = {
  text: string;
  /** false when nothing in memory supports an answer ("I don't know"). */
  known: boolean;
  confidence: number;
  method: "local" | "llm" | "cypher";
  citations: GraphCitation[];
  /**
   * ASK with an LLM: the CYPHER query the question was translated into (validated, run read-only).
   */
  cypher?: string;
  /**
   * ASK with an LLM: claims left out because they cited nothing or cited something not retrieved.
   */
  dropped_claims?: Array<{ text: string; reason: string }>;
};

export type GraphTable = { columns: string[]; rows: Array<Record<string, unknown>> };

export type GraphEvidence = {
  /** Why the graph gave nothing, when it did not (e.g. distill has not run for this agent). */
  notice?: string;
  /** The event time the graph was read at (request `as_of`), null for "now". */
  as_of: Date | null;
  facts?: GraphFact[];
  paths?: GraphPath[];
  answer?: GraphAnswer;
  table?: GraphTable;
};

/** Per result: which edges (and path) led a graph strategy to this memory. */
export type ResultGraphLink = { edge_ids: string[]; path?: GraphPath };
