// AUTO's graph rules, consulted before the memory-strategy rules of route-auto.ts: a query written in
// Cypher goes to CYPHER (with or without an LLM: it is a syntactic fact, and a near-miss gets CYPHER's
// positioned 422 instead of a useless text search); without an LLM, a question about an entity the
// agent's graph knows goes to ASK (a direct question about one relation) or GRAPH (about its neighbourhood).
import { parseCypher } from "../../graph/cypher/parser";
import type { ConcreteStrategyName } from "../strategy";
import type { RouteDecision } from "../route-auto";

/** The graph rules as route-auto calls them: a decision, or null to fall through to the memory rules. */
export type GraphRouting = (query: string, available: ReadonlySet<ConcreteStrategyName>, llmConfigured: boolean) => Promise<RouteDecision | null>;

/** Starts like a Cypher statement: a clause keyword, then a pattern or procedure. */
const CYPHER_START = /^\s*(?:MATCH|OPTIONAL\s+MATCH|CREATE|MERGE|CALL|UNWIND|LOAD\s+CSV|DETACH\s+DELETE)\b[\s\S]*[(]/i;

export function looksLikeCypher(query: string): "parses" | "near-miss" | null {
  try {
    parseCypher(query);
    return "parses";
  } catch {
    return CYPHER_START.test(query) ? "near-miss" : null;
  }
}

export function cypherRule(query: string, available: ReadonlySet<ConcreteStrategyName>): RouteDecision | null {
  if (!available.has("CYPHER")) return null;
  const shape = looksLikeCypher(query);
  if (shape === "parses") return { strategy: "CYPHER", method: "rules", reason: "the query parses as the CYPHER subset" };
  if (shape === "near-miss") return { strategy: "CYPHER", method: "rules", reason: "the query is written in Cypher (CYPHER explains what it cannot run)" };
  return null;
}

/** The graph rules for one recall. */
export function graphRoutingFor(): GraphRouting {
  return async (query, available) => cypherRule(query, available);
}
