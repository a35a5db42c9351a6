// The extractor port: memory versions in, typed entities and relations out. The local extractor
// (rules over wink-nlp + chrono-node) and the LLM extractor produce exactly this shape; distill
// consumes it.
import type { MemoType } from "../../graph/memo-types";

export type ExtractInput = {
  memoryId: string;
  version: number;
  agentId: string;
  content: string;
  metadata: Record<string, unknown>;
  /**
   * Reference time for relative dates ("last week"): when the remembered thing happened, else
   * stored.
   */
  referenceTime: Date;
};

export type ExtractedEntity = {
  /** Local reference, unique within one memory's extraction; relations point at it. */
  ref: string;
  name: string;
  type: MemoType;
  aliases?: string[];
  description?: string;
  ontologyUri?: string;
  /** Character offsets of the mention in the memory's content. */
  span?: [number, number];
};

export type ExtractedRelation = {
  subject: string;
  /**
   * Canonical UPPER_SNAKE relation (src/domain/graph/relations.ts), or a lemma form of an unknown
   * one.
   */
  relation: string;
  object: string;
  /** The fact in words, short and self-contained ("Alice moved to Berlin in March 2023"). */
  fact: string;
  /** Event time: when the fact started / stopped holding in the world, when the text says so. */
  validAt?: Date | null;
  invalidAt?: Date | null;
  confidence: number;
  /**
   * "Alice no longer works at Acme": the fact is asserted as ended; it closes, never opens, an
   * edge.
   */
  negated?: boolean;
  span?: [number, number];
};

export type MemoryExtraction = {
  memoryId: string;
  version: number;
  /**
   * Which extractor produced this memory's result ("local-v1", "llm:gpt-4o-mini",
   * "local-fallback-v1").
   */
  extractor: string;
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
};

export type ExtractBatchResult = {
  results: MemoryExtraction[];
  warnings: string[];
  tokens: number;
};

export interface Extractor {
  /** Stable id of the extractor and its rules' version: distilled_memories.extractor. */
  readonly name: string;
  /**
   * A batch of memories (the LLM extractor sends one chunk per call); AppErrors such as
   * budget-exceeded propagate.
   */
  extract(
    batch: ExtractInput[],
    ctx: { orgId: string; signal?: AbortSignal },
  ): Promise<ExtractBatchResult>;
}
