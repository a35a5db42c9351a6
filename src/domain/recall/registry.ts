// The strategy registry, exhaustive over the ten names: the AUTO router and the nine strategies.
import { AppError } from "../../lib/errors";
import { ownValue } from "../../lib/own-key";
import { askStrategy } from "./strategies/ask";
import { codeStrategy } from "./strategies/code";
import { cypherStrategy } from "./strategies/cypher";
import { graphStrategy } from "./strategies/graph";
import { traceStrategy } from "./strategies/trace";
import { tripletStrategy } from "./strategies/triplet";
import { lexicalStrategy } from "./strategies/lexical";
import { temporalStrategy } from "./strategies/temporal";
import { vectorStrategy } from "./strategies/vector";
import type { ConcreteStrategyName, RecallStrategy, StrategyName } from "./strategy";

type Entry = { kind: "router" } | { kind: "available"; strategy: RecallStrategy };

export const REGISTRY: Record<StrategyName, Entry> = {
  AUTO: { kind: "router" },
  VECTOR: { kind: "available", strategy: vectorStrategy },
  LEXICAL: { kind: "available", strategy: lexicalStrategy },
  TEMPORAL: { kind: "available", strategy: temporalStrategy },
  CODE: { kind: "available", strategy: codeStrategy },
  GRAPH: { kind: "available", strategy: graphStrategy },
  TRIPLET: { kind: "available", strategy: tripletStrategy },
  TRACE: { kind: "available", strategy: traceStrategy },
  ASK: { kind: "available", strategy: askStrategy as RecallStrategy },
  CYPHER: { kind: "available", strategy: cypherStrategy },
};

export const AVAILABLE_STRATEGIES: RecallStrategy[] = Object.values(REGISTRY).flatMap((e) =>
  e.kind === "available" ? [e.strategy] : [],
);
export const AVAILABLE_NAMES: ReadonlySet<ConcreteStrategyName> = new Set(
  AVAILABLE_STRATEGIES.map((s) => s.name),
);

export function strategyNamed(name: ConcreteStrategyName): RecallStrategy {
  const entry = ownValue(REGISTRY, name);
  if (entry?.kind === "available") return entry.strategy;
  throw new AppError(
    "strategy-unavailable",
    `Strategy ${name} ${entry ? "is a router" : "does not exist"}`,
  );
}

/** For the OpenAPI description of the `strategy` field. */
export function describeStrategies(): string {
  return Object.entries(REGISTRY)
    .map(
      ([name, e]) =>
        `- \`${name}\`: ${e.kind === "router" ? "fuses LEXICAL, VECTOR, CODE on code-shaped queries and the graph when it knows the question's entities (an LLM, when configured, weights them)" : e.strategy.description}`,
    )
    .join("\n");
}
