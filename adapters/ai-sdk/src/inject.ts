// Recalled memories as a system prompt, so a model sees what svc knows before its first step.
import type { SvcClient } from "@svc/sdk";

export type MemoryPromptOptions = {
  agentId: string;
  /** What to recall for: usually the user's message. */
  query: string;
  topK?: number;
  /** Text placed before the memories (default: a one-line instruction). */
  preamble?: string;
};

const DEFAULT_PREAMBLE = "Facts you remember about this user (use them when relevant):";

/** A system prompt listing the recalled memories, or "" when nothing relevant is stored. */
export async function memoryPrompt(svc: SvcClient, options: MemoryPromptOptions): Promise<string> {
  const { agentId, query, topK = 5 } = options;
  const { results } = await svc.memories.recall({ agent_id: agentId, query, top_k: topK });
  if (results.length === 0) return "";
  const lines = results.map((r) => `- ${r.content}`);
  return [options.preamble ?? DEFAULT_PREAMBLE, ...lines].join("\n");
}
