// Splits a batch into LLM calls: at most `maxMemories` memories and about `maxTokens` prompt tokens
// per chunk (a memory longer than the budget travels alone, cut to it).
import type { ExtractInput } from "../types";

export type ChunkLimits = { maxMemories: number; maxTokens: number };

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function chunkBatch(batch: ExtractInput[], limits: ChunkLimits): ExtractInput[][] {
  const chunks: ExtractInput[][] = [];
  let current: ExtractInput[] = [];
  let tokens = 0;
  for (const input of batch) {
    const cost = estimateTokens(input.content);
    if (
      current.length > 0 &&
      (current.length >= limits.maxMemories || tokens + cost > limits.maxTokens)
    ) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(input);
    tokens += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
