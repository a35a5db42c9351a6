// AUTO's plan: which retrievers run and with what weight; never a route that decides alone. LEXICAL
// always runs (the floor no misreading can take away); VECTOR when the query is embedded; CODE when
// the query shows code signs; the graph strategy that the entity rule (routing/graph-rules.ts) or
// the LLM names. A time expression is a ranking signal, not a filter. The LLM, when configured,
// only raises one weight.
import type { LlmProvider } from "../../providers/llm/port";
import { LlmUnavailableError } from "../../providers/llm/port";
import type { ConcreteStrategyName, RecallStrategy } from "./strategy";
import type { ParsedTime, TimeWindow } from "./time-expressions";

export type AutoRetriever = {
  strategy: RecallStrategy;
  weight: number;
  why: string;
  prepared?: unknown;
};
export type AutoPlan = {
  retrievers: AutoRetriever[];
  /** The reciprocal-rank constant: Σ weight/(k + rank). */
  k: number;
  /** Memories whose event time falls in this window rank higher (fuse.ts); null: no time signal. */
  window: TimeWindow | null;
  windowWeight: number;
  /**
   * Without an LLM the recall transaction reads the graph's entity rule; its strategy joins the
   * fusion.
   */
  entityRule: boolean;
  reason: string;
};

/**
 * Signs that a query is about code, strong (an identifier's shape) or weak (a word that is also
 * prose).
 */
const STRONG_CODE_SIGNS: Array<[RegExp, string]> = [
  [/\b[a-z]+[A-Z][A-Za-z0-9]*\b/, "camelCase identifier"],
  [/\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b/, "snake_case identifier"],
  [
    /\b[\w-]+\.(?:ts|tsx|js|jsx|py|go|rs|java|rb|c|h|cpp|cs|sql|sh|yaml|yml|json|toml)\b/,
    "file name",
  ],
  [/::|->|=>|\w\(\)/, "code symbol"],
];
const WEAK_CODE_SIGNS: Array<[RegExp, string]> = [
  [/[\w.-]+\/[\w./-]+/, "path-like word"],
  [/\b(?:function|class|def|fn|func|interface|struct|enum|import|return)\b/, "code keyword"],
];

export function codeSign(query: string): { strength: "strong" | "weak"; sign: string } | null {
  for (const [re, sign] of STRONG_CODE_SIGNS)
    if (re.test(query)) return { strength: "strong", sign };
  for (const [re, sign] of WEAK_CODE_SIGNS) if (re.test(query)) return { strength: "weak", sign };
  return null;
}

/**
 * Retriever weights without an LLM, and the reciprocal-rank constant. Measured on the public sets'
 * development splits (docs/benchmarks.md, "AUTO on public data"): with the local embedder VECTOR at
 * 0.3 adds SciFact nDCG@10 +0.01 and CoSQA R@10 +0.04 over LEXICAL alone and costs LoCoMo R@10 at
 * most 0.005; at equal weight it costs LoCoMo 0.04. Since LEXICAL's feedback pass
 * (pipeline/feedback.ts) its top is worth more: k = 5 rather than 10 adds LoCoMo R@10 +0.015 and
 * SciFact nDCG@10 +0.011 on the even questions, CoSQA −0.004 (docs/benchmarks.md, "Pseudo-relevance
 * feedback in AUTO").
 */
export const AUTO_K = 5;
export const WEIGHTS = {
  LEXICAL: 1,
  /**
   * The local hashing embedder matches shared words and n-grams only: a second opinion, not an
   * equal.
   */
  VECTOR_LOCAL: 0.3,
  VECTOR_SEMANTIC: 1,
  CODE_STRONG: 1,
  CODE_WEAK: 0.4,
  GRAPH: 2,
  WINDOW: 0.25,
  /** What the LLM's choice multiplies its retriever's weight by. */
  LLM_CHOICE: 2,
} as const;

export type AutoChoice = {
  named: (name: ConcreteStrategyName) => RecallStrategy;
  semanticEmbedder: boolean;
  vectorAvailable: boolean;
};

/** The rules' plan; `llmChoice`, when the LLM named a strategy, raises that retriever's weight. */
export function planAuto(
  query: string,
  time: ParsedTime,
  choice: AutoChoice,
  llmChoice?: ConcreteStrategyName,
): AutoPlan {
  const retrievers: AutoRetriever[] = [
    { strategy: choice.named("LEXICAL"), weight: WEIGHTS.LEXICAL, why: "full text, always" },
  ];
  if (choice.vectorAvailable) {
    const weight = choice.semanticEmbedder ? WEIGHTS.VECTOR_SEMANTIC : WEIGHTS.VECTOR_LOCAL;
    retrievers.push({ strategy: choice.named("VECTOR"), weight, why: "query embedding" });
  }
  const code = codeSign(query);
  if (code) {
    const weight = code.strength === "strong" ? WEIGHTS.CODE_STRONG : WEIGHTS.CODE_WEAK;
    retrievers.push({ strategy: choice.named("CODE"), weight, why: `a ${code.sign}` });
  }
  const graphChoice = llmChoice && ["GRAPH", "TRIPLET", "TRACE", "ASK"].includes(llmChoice);
  if (graphChoice)
    retrievers.unshift({
      strategy: choice.named(llmChoice),
      weight: WEIGHTS.GRAPH,
      why: "chosen by the LLM",
    });
  let windowWeight = time.window ? WEIGHTS.WINDOW : 0;
  if (llmChoice === "TEMPORAL" && time.window) windowWeight *= WEIGHTS.LLM_CHOICE;
  const raised = retrievers.find((r) => r.strategy.name === llmChoice && !graphChoice);
  if (raised) raised.weight *= WEIGHTS.LLM_CHOICE;
  const parts = retrievers.map((r) => `${r.strategy.name} ×${r.weight} (${r.why})`);
  if (time.window) parts.push(`event time in "${time.window.expression}" ranks higher`);
  return {
    retrievers,
    k: AUTO_K,
    window: time.window,
    windowWeight,
    entityRule: false,
    reason: `fused ${parts.join(", ")}`,
  };
}

const SYSTEM_PROMPT =
  "You route search queries over an AI agent's stored memories to one retrieval strategy. " +
  'Answer with a JSON object {"strategy": "<NAME>", "reason": "<one short sentence>"} and nothing else.';

function routingPrompt(query: string, strategies: RecallStrategy[]): string {
  const menu = strategies.map((s) => `- ${s.name}: ${s.description}`).join("\n");
  return `Strategies:\n${menu}\n\nQuery: ${JSON.stringify(query)}\n\nWhich strategy fits best?`;
}

type LlmAnswer = { strategy: ConcreteStrategyName; reason: string };

function parseAnswer(
  text: string,
  available: ReadonlySet<ConcreteStrategyName>,
): LlmAnswer | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim().replace(/^```(?:json)?|```$/g, ""));
  } catch {
    return "the LLM answer was not JSON";
  }
  const raw = (parsed as { strategy?: unknown })?.strategy;
  const strategy = typeof raw === "string" ? raw.trim().toUpperCase() : "";
  if (!available.has(strategy as ConcreteStrategyName))
    return `the LLM chose "${strategy.slice(0, 20)}", which is not available`;
  const reason = (parsed as { reason?: unknown }).reason;
  return {
    strategy: strategy as ConcreteStrategyName,
    reason: typeof reason === "string" ? reason.slice(0, 300) : "chosen by the LLM",
  };
}

/**
 * Asks the configured LLM which strategy fits; its answer only weights AUTO's fusion. AppErrors
 * from the LLM port (e.g. budget-exceeded) propagate; a provider failure or an unusable answer
 * returns why.
 */
export async function askLlmRouter(
  llm: LlmProvider,
  orgId: string,
  query: string,
  strategies: RecallStrategy[],
): Promise<LlmAnswer | string> {
  const available = new Set(strategies.map((s) => s.name));
  try {
    const answer = await llm.complete(
      {
        system: SYSTEM_PROMPT,
        prompt: routingPrompt(query, strategies),
        json: true,
        maxTokens: 100,
      },
      { orgId },
    );
    return parseAnswer(answer.text, available);
  } catch (error) {
    if (!(error instanceof LlmUnavailableError)) throw error;
    return "the LLM was unavailable";
  }
}
