// The strategy registry, exhaustive over the ten names: available modules, the AUTO router, and the
// strategies that arrive with the Forge issue (pinned → 501 strategy-unavailable).
import { AppError } from "../errors";
import { codeStrategy } from "./strategies/code";
import { lexicalStrategy } from "./strategies/lexical";
import { temporalStrategy } from "./strategies/temporal";
import { vectorStrategy } from "./strategies/vector";
import type { ConcreteStrategyName, RecallStrategy, StrategyName } from "./strategy";

type Entry =
  | { kind: "router" }
  | { kind: "available"; strategy: RecallStrategy }
  | { kind: "unavailable"; reason: string };

const LATER = "arrives with the knowledge-graph (Forge) feature; not available in this build";

export const REGISTRY: Record<StrategyName, Entry> = {
  AUTO: { kind: "router" },
  VECTOR: { kind: "available", strategy: vectorStrategy },
  LEXICAL: { kind: "available", strategy: lexicalStrategy },
  TEMPORAL: { kind: "available", strategy: temporalStrategy },
  CODE: { kind: "available", strategy: codeStrategy },
  GRAPH: { kind: "unavailable", reason: LATER },
  TRIPLET: { kind: "unavailable", reason: LATER },
  TRACE: { kind: "unavailable", reason: LATER },
  ASK: { kind: "unavailable", reason: LATER },
  CYPHER: { kind: "unavailable", reason: LATER },
};

export const AVAILABLE_STRATEGIES: RecallStrategy[] = Object.values(REGISTRY).flatMap((e) => (e.kind === "available" ? [e.strategy] : []));

export function strategyNamed(name: ConcreteStrategyName): RecallStrategy {
  const entry = REGISTRY[name];
  if (entry.kind === "available") return entry.strategy;
  throw new AppError("strategy-unavailable", `Strategy ${name} ${entry.kind === "unavailable" ? entry.reason : "is a router"}`);
}

/** For the OpenAPI description of the `strategy` field. */
export function describeStrategies(): string {
  return Object.entries(REGISTRY).map(([name, e]) =>
    `- \`${name}\`: ${e.kind === "router" ? "routes to an available strategy (LLM when configured, else rules)" : e.kind === "available" ? e.strategy.description : `unavailable (501 strategy-unavailable): ${e.reason}`}`,
  ).join("\n");
}
