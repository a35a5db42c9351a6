// The strategy registry, exhaustive over the ten names: available modules, the AUTO router, and the
// strategies that arrive with the Forge issue (pinned → 501 strategy-unavailable).
import { AppError } from "../errors";
import { ownValue } from "../own-key";
import { codeStrategy } from "./strategies/code";
import { cypherStrategy } from "./strategies/cypher";
import { graphStrategy } from "./strategies/graph";
import { traceStrategy } from "./strategies/trace";
import { tripletStrategy } from "./strategies/triplet";
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
  GRAPH: { kind: "available", strategy: graphStrategy },
  TRIPLET: { kind: "available", strategy: tripletStrategy },
  TRACE: { kind: "available", strategy: traceStrategy },
  ASK: { kind: "unavailable", reason: LATER },
  CYPHER: { kind: "available", strategy: cypherStrategy },
};

export const AVAILABLE_STRATEGIES: RecallStrategy[] = Object.values(REGISTRY).flatMap((e) => (e.kind === "available" ? [e.strategy] : []));

export function strategyNamed(name: ConcreteStrategyName): RecallStrategy {
  const entry = ownValue(REGISTRY, name);
  if (entry?.kind === "available") return entry.strategy;
  throw new AppError("strategy-unavailable", `Strategy ${name} ${entry?.kind === "unavailable" ? entry.reason : entry ? "is a router" : "does not exist"}`);
}

/** For the OpenAPI description of the `strategy` field. */
export function describeStrategies(): string {
  return Object.entries(REGISTRY).map(([name, e]) =>
    `- \`${name}\`: ${e.kind === "router" ? "routes to an available strategy (LLM when configured, else rules)" : e.kind === "available" ? e.strategy.description : `unavailable (501 strategy-unavailable): ${e.reason}`}`,
  ).join("\n");
}
