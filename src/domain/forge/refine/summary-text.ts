// A cluster's summary text. Offline (extractive): its best-known members by name and its strongest
// facts, quoted as stored, deterministic. With an LLM: a short abstract of the cluster's strongest
// facts, asked with only those facts in the prompt (so the text is grounded in the memories behind
// them).
import type { ClusterEdge, ClusterMemo } from "../../../data/queries/forge/refine/summarize";
import type { LlmRequest } from "../../../providers/llm/port";

export const SUMMARY_FACTS = 5;
/** Facts an LLM summary is written from (and grounded in). */
export const LLM_SUMMARY_FACTS = 20;
const NAMED_MEMBERS = 3;
const MAX_SUMMARY_CHARS = 1200;

export type ClusterSummary = {
  name: string;
  text: string;
  quoted: ClusterEdge[];
  method: "extractive" | "llm";
};

const strongest = (edges: ClusterEdge[], n: number) =>
  [...edges]
    .sort(
      (a, b) =>
        b.weight * b.confidence - a.weight * a.confidence || (a.edge_id < b.edge_id ? -1 : 1),
    )
    .slice(0, n);

export function summaryRequest(members: ClusterMemo[], edges: ClusterEdge[]): LlmRequest {
  const names = [...members]
    .sort((a, b) => b.mention_count - a.mention_count || (a.name < b.name ? -1 : 1))
    .slice(0, 30)
    .map((m) => `${m.name} (${m.memo_type})`);
  const facts = strongest(edges, LLM_SUMMARY_FACTS).map((e) => `- ${e.fact}`);
  return {
    system:
      "You summarise a group of related entities from a knowledge graph. Use only the facts given; never add outside knowledge. Answer with at most three plain sentences.",
    prompt: `Entities: ${names.join(", ")}\nFacts:\n${facts.join("\n") || "- (no facts)"}\n\nSummary:`,
    maxTokens: 200,
  };
}

/**
 * The LLM's answer as summary text (reasoning blocks dropped, length capped), or null when it is
 * empty.
 */
export function llmSummary(
  base: ClusterSummary,
  edges: ClusterEdge[],
  answer: string,
): ClusterSummary | null {
  const text = answer
    .replace(/<think>[\s\S]*?<\/think>/g, "")
    .trim()
    .slice(0, MAX_SUMMARY_CHARS);
  return text
    ? { name: base.name, text, quoted: strongest(edges, LLM_SUMMARY_FACTS), method: "llm" }
    : null;
}

export function extractiveSummary(members: ClusterMemo[], edges: ClusterEdge[]): ClusterSummary {
  const top = [...members].sort(
    (a, b) => b.mention_count - a.mention_count || (a.name < b.name ? -1 : 1),
  );
  const named = top.slice(0, NAMED_MEMBERS).map((m) => m.name);
  const more = members.length - named.length;
  const name = `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
  const quoted = strongest(edges, SUMMARY_FACTS);
  const facts = quoted.map((e) => e.fact.replace(/[.\s]+$/, "")).join(". ");
  return {
    name,
    text: `${members.length} related memos: ${name}.${facts ? ` ${facts}.` : ""}`,
    quoted,
    method: "extractive",
  };
}
