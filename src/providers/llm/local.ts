// The local LLM: deterministic and offline. It answers with an extractive summary of the prompt
// (the sentences carrying the most frequent content words), so features built on the port work
// without a provider and tests are reproducible. Callers that need structured answers use their own
// rules when `name === "local"` instead of parsing this text.
import type { LlmProvider, LlmRequest } from "./port";

const STOPWORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or that the this to was were will with".split(
    " ",
  ),
);

export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu)
      ?.filter((w) => w.length > 2 && !STOPWORDS.has(w)) ?? []
  );
}

/** The highest-scoring sentences in their original order, within the token budget. */
export function extractiveSummary(text: string, maxTokens: number): string {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const frequency = new Map<string, number>();
  for (const w of words(text)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scored = sentences.map((sentence, index) => {
    const ws = words(sentence);
    const score =
      ws.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) / Math.max(1, Math.sqrt(ws.length));
    return { sentence, index, score };
  });
  const chosen: typeof scored = [];
  let budget = maxTokens;
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.index - b.index)) {
    const cost = estimateTokens(s.sentence);
    if (cost > budget) continue;
    chosen.push(s);
    budget -= cost;
  }
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((s) => s.sentence)
    .join(" ");
}

export function createLocalLlm(model = "local-extractive-1"): LlmProvider {
  return {
    name: "local",
    model,
    async complete(request: LlmRequest) {
      const summary = extractiveSummary(request.prompt, request.maxTokens ?? 256);
      const text = request.json ? JSON.stringify({ summary }) : summary;
      return {
        text,
        tokens: estimateTokens((request.system ?? "") + request.prompt) + estimateTokens(text),
      };
    },
  };
}
