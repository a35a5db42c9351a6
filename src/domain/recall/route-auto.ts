// AUTO routing: the LLM picks among the available strategies when a real LLM is configured; the
// deterministic rules decide otherwise, and whenever the LLM fails or answers something unusable.
import type { LlmProvider } from "../../providers/llm/port";
import { LlmUnavailableError } from "../../providers/llm/port";
import type { ConcreteStrategyName, RecallStrategy } from "./strategy";
import { parseTimeExpression } from "./time-expressions";
import type { GraphRouting } from "./routing/graph-rules";

export type RoutingMethod = "pinned" | "llm" | "rules";
export type RouteDecision = { strategy: ConcreteStrategyName; method: RoutingMethod; reason: string };

const CODE_SIGNS: Array<[RegExp, string]> = [
  [/\b[a-z]+[A-Z][A-Za-z0-9]*\b/, "camelCase identifier"],
  [/\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b/, "snake_case identifier"],
  [/[\w.-]+\/[\w./-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|py|go|rs|java|rb|c|h|cpp|cs|sql|sh|yaml|yml|json|toml)\b/, "file path"],
  [/::|->|=>|\w\(\)|\b(?:function|class|def|fn|func|interface|struct|enum|import|return)\b/, "code symbol or keyword"],
];

/**
 * The rules, in order: code signs → CODE; a time expression or "before/after <event>" → TEMPORAL;
 * a quoted phrase, one or two words, or an id-like token → LEXICAL; anything else → VECTOR when the
 * embedder is a semantic model, else LEXICAL: the local hashing embedder only matches shared words
 * and character n-grams, where full text with its any-word tier ranks better (bench/recall.ts quality set).
 */
export function routeByRules(query: string, now: Date, available: ReadonlySet<ConcreteStrategyName>, semanticEmbedder: boolean): RouteDecision {
  const pick = (strategy: ConcreteStrategyName, reason: string): RouteDecision | null =>
    available.has(strategy) ? { strategy, method: "rules", reason } : null;
  for (const [re, sign] of CODE_SIGNS) {
    if (re.test(query)) { const d = pick("CODE", `query contains a ${sign}`); if (d) return d; }
  }
  const time = parseTimeExpression(query, now);
  if (time.window || time.anchor) {
    const d = pick("TEMPORAL", `query contains the time expression "${(time.window ?? time.anchor)!.expression}"`);
    if (d) return d;
  }
  const words = query.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  if (/"[^"]+"/.test(query)) { const d = pick("LEXICAL", "query contains a quoted phrase"); if (d) return d; }
  if (words <= 2) { const d = pick("LEXICAL", `short keyword query (${words} word${words === 1 ? "" : "s"})`); if (d) return d; }
  if (/\b(?=[A-Za-z-]*\d)[A-Za-z0-9-]{6,}\b/.test(query)) { const d = pick("LEXICAL", "query contains an id-like token"); if (d) return d; }
  if (semanticEmbedder) { const d = pick("VECTOR", "natural-language query: semantic similarity"); if (d) return d; }
  return pick("LEXICAL", "natural-language query; the local embedder has no semantics, so full text (any-word tier) ranks better")
    ?? { strategy: "LEXICAL", method: "rules", reason: "default" };
}

const SYSTEM_PROMPT = "You route search queries over an AI agent's stored memories to one retrieval strategy. "
  + 'Answer with a JSON object {"strategy": "<NAME>", "reason": "<one short sentence>"} and nothing else.';

function routingPrompt(query: string, strategies: RecallStrategy[]): string {
  const menu = strategies.map((s) => `- ${s.name}: ${s.description}`).join("\n");
  return `Strategies:\n${menu}\n\nQuery: ${JSON.stringify(query)}\n\nWhich strategy fits best?`;
}

function parseAnswer(text: string, available: ReadonlySet<ConcreteStrategyName>): { strategy: ConcreteStrategyName; reason: string } | string {
  let parsed: unknown;
  try { parsed = JSON.parse(text.trim().replace(/^```(?:json)?|```$/g, "")); } catch { return "the LLM answer was not JSON"; }
  const strategy = typeof (parsed as { strategy?: unknown })?.strategy === "string" ? (parsed as { strategy: string }).strategy.trim().toUpperCase() : "";
  if (!available.has(strategy as ConcreteStrategyName)) return `the LLM chose "${strategy.slice(0, 20)}", which is not available`;
  const reason = (parsed as { reason?: unknown }).reason;
  return { strategy: strategy as ConcreteStrategyName, reason: typeof reason === "string" ? reason.slice(0, 300) : "chosen by the LLM" };
}

/** AppErrors from the LLM port (e.g. budget-exceeded) propagate; provider failures fall back to the rules. */
export async function routeAuto(llm: LlmProvider, orgId: string, query: string, now: Date, strategies: RecallStrategy[], semanticEmbedder: boolean, graphRouting?: GraphRouting): Promise<RouteDecision> {
  const available = new Set(strategies.map((s) => s.name));
  // Graph rules (CYPHER, ASK, GRAPH) first: routing/graph-rules.ts.
  const graph = graphRouting ? await graphRouting(query, available, llm.name !== "local") : null;
  if (graph) return graph;
  if (llm.name === "local") return routeByRules(query, now, available, semanticEmbedder);
  let fallbackWhy: string;
  try {
    const answer = await llm.complete({ system: SYSTEM_PROMPT, prompt: routingPrompt(query, strategies), json: true, maxTokens: 100 }, { orgId });
    const choice = parseAnswer(answer.text, available);
    if (typeof choice !== "string") return { ...choice, method: "llm" };
    fallbackWhy = choice;
  } catch (error) {
    if (!(error instanceof LlmUnavailableError)) throw error;
    fallbackWhy = "the LLM was unavailable";
  }
  const rules = routeByRules(query, now, available, semanticEmbedder);
  return { ...rules, reason: `${fallbackWhy}; rules: ${rules.reason}` };
}
