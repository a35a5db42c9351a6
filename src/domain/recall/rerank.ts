// The optional rerank stage (`rerank: true`, docs/recall.md "Rerank"): after the recall
// transaction, one call to the configured LLM (metered and budget-checked like every LLM use)
// reorders the first RERANK_MAX results. The set of results never changes (the audit row and access
// counts stay true); only their order does. When the LLM is down, refused by the budget or answers
// unusably, the strategy's order stays and the note says why.
import type { LlmProvider } from "../../providers/llm/port";
import { LlmUnavailableError } from "../../providers/llm/port";
import { AppError } from "../../lib/errors";
import { parseJsonAnswer } from "../forge/refine/llm-budget";

export const RERANK_MAX = 20;
const PASSAGE_CHARS = 400;

const SYSTEM =
  "You rank numbered passages from an AI agent's memory by how well each one helps answer the query. " +
  'Answer with a JSON object {"order": ["P3", "P1", …]} listing passage ids, most useful first, and nothing else. ' +
  "List every passage once.";

export type Reranked<T> = { results: T[]; note: string };

/**
 * The ids the model listed, as indexes into the passages: unknown ids and repeats are dropped; null
 * when none is usable.
 */
export function orderFrom(text: string, count: number): number[] | null {
  const order = parseJsonAnswer(text)?.order;
  if (!Array.isArray(order)) return null;
  const seen = new Set<number>();
  for (const id of order) {
    const match = /^P?(\d+)$/i.exec(String(id).trim());
    const index = match ? Number(match[1]) - 1 : -1;
    if (index >= 0 && index < count) seen.add(index);
  }
  return seen.size === 0 ? null : [...seen];
}

export async function rerankResults<T extends { content: string }>(
  llm: LlmProvider,
  orgId: string,
  query: string,
  results: T[],
): Promise<Reranked<T>> {
  const head = results.slice(0, RERANK_MAX);
  if (head.length < 2) return { results, note: "rerank: fewer than 2 results, nothing to reorder" };
  const passages = head
    .map((r, i) => `P${i + 1}: ${JSON.stringify(r.content.slice(0, PASSAGE_CHARS))}`)
    .join("\n");
  let text: string;
  try {
    text = (
      await llm.complete(
        {
          system: SYSTEM,
          prompt: `Query: ${JSON.stringify(query)}\n\nPassages:\n${passages}`,
          json: true,
          maxTokens: 20 + 8 * head.length,
        },
        { orgId },
      )
    ).text;
  } catch (error) {
    if (error instanceof LlmUnavailableError)
      return {
        results,
        note: `rerank: the LLM was unavailable (${error.message.slice(0, 120)}); the strategy's order is kept`,
      };
    if (error instanceof AppError && error.slug === "budget-exceeded")
      return {
        results,
        note: `rerank: the token budget refused the LLM call (${error.detail}); the strategy's order is kept`,
      };
    throw error;
  }
  const order = orderFrom(text, head.length);
  if (!order)
    return {
      results,
      note: "rerank: the LLM's answer was not the JSON asked for; the strategy's order is kept",
    };
  const listed = new Set(order);
  const rest = head.map((_, i) => i).filter((i) => !listed.has(i));
  return {
    results: [...[...order, ...rest].map((i) => head[i]!), ...results.slice(RERANK_MAX)],
    note: `reranked the first ${head.length} by the LLM (${llm.model})`,
  };
}
