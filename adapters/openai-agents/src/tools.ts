// The remember, recall and forget tools of one agent's svc memory, as Agents SDK function tools.
import { tool } from "@openai/agents";
import { z } from "zod";
import type { SvcClient } from "@svc/sdk";

export type MemoryToolsOptions = {
  /** Whose memories the tools read and write: svc's `agent_id`. */
  agentId: string;
  /** How many memories `recall` returns at most (default 5). */
  topK?: number;
};

/** `[remember, recall, forget]` for `new Agent({ tools })`; each returns svc's answer, trimmed. */
export function svcMemoryTools(svc: SvcClient, { agentId, topK = 5 }: MemoryToolsOptions) {
  return [
    tool({
      name: "remember",
      description: "Store a fact in long-term memory so it can be recalled in later conversations.",
      parameters: z.object({
        content: z.string().min(1).describe("The fact to remember, self-contained"),
      }),
      execute: async ({ content }) => {
        const stored = await svc.memories.store({ agent_id: agentId, content });
        return { memory_id: stored.memory_id };
      },
    }),
    tool({
      name: "recall",
      description: "Search long-term memory for facts relevant to a query.",
      parameters: z.object({ query: z.string().min(1).describe("What to look for") }),
      execute: async ({ query }) => {
        const { results } = await svc.memories.recall({ agent_id: agentId, query, top_k: topK });
        return results.map(({ memory_id, content, score }) => ({ memory_id, content, score }));
      },
    }),
    tool({
      name: "forget",
      description: "Forget a memory by its memory_id (as returned by recall), for good.",
      parameters: z.object({ memory_id: z.string().min(1) }),
      execute: async ({ memory_id }) => {
        const { forgotten } = await svc.memories.forget({ memory_id });
        return { forgotten };
      },
    }),
  ];
}
