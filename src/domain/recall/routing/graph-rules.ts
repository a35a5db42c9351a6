// AUTO's graph rules, consulted before the memory-strategy rules of route-auto.ts: a query written in
// Cypher goes to CYPHER (with or without an LLM: it is a syntactic fact, and a near-miss gets CYPHER's
// positioned 422 instead of a useless text search); without an LLM, a question about an entity the
// agent's graph knows goes to ASK (a direct question about one relation) or GRAPH (a path between
// several). With an LLM the router's menu (every strategy's description) decides those.
import type { Database, Tx } from "../../../data/pools";
import { withTenantRead } from "../../../data/with-tenant";
import { parseCypher } from "../../graph/cypher/parser";
import { seedsFromQuery } from "../../graph/seeds";
import { readQuestion } from "../ask/question";
import type { ConcreteStrategyName } from "../strategy";
import type { RouteDecision } from "../route-auto";
import { parseTimeExpression } from "../time-expressions";

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

/** A question: ends with "?", or opens with a wh-word or an auxiliary verb. */
const QUESTION = /\?\s*$|^\s*(?:who|whom|whose|what|which|where|when|how|does|do|did|is|are|was|were|has|have|can)\b/i;

/** Whether the entity rule can decide this query: a question without a time expression, ASK or GRAPH available. */
export function entityRuleApplies(query: string, now: Date, available: ReadonlySet<ConcreteStrategyName>): boolean {
  if (!QUESTION.test(query) || (!available.has("ASK") && !available.has("GRAPH"))) return false;
  const time = parseTimeExpression(query, now);
  return !time.window && !time.anchor;
}

/**
 * Without an LLM: a question naming a memo of the agent's graph goes to ASK when it asks about a relation
 * the question reader recognises ("who is Alice's manager"), to GRAPH when it names two or more memos
 * and no relation ("how is Alice connected to Carol": a path question). A question with a time
 * expression is left to TEMPORAL. The caller has checked entityRuleApplies; the read is on its transaction.
 */
export async function entityRule(tx: Tx, orgId: string, agentId: string, query: string, available: ReadonlySet<ConcreteStrategyName>): Promise<RouteDecision | null> {
  const seeds = await seedsFromQuery(tx, orgId, agentId, query, 4);
  if (seeds.length === 0) return null;
  const names = seeds.map((s) => s.memo.name);
  const at = query.toLowerCase().indexOf(seeds[0]!.matched);
  const cue = readQuestion(query, at).cues[0];
  if (cue && available.has("ASK")) return { strategy: "ASK", method: "rules", reason: `a question about ${names[0]}'s ${cue.relation} relation ("${cue.cue}"), and ${names[0]} is in the agent's graph` };
  if (seeds.length >= 2 && available.has("GRAPH")) return { strategy: "GRAPH", method: "rules", reason: `a question connecting ${names.slice(0, 3).join(", ")}, which are in the agent's graph` };
  return null;
}

/**
 * The graph rules for one recall: CYPHER always; the entity rule only when no LLM routes, and here only
 * when `entityRuleLater` is false: otherwise the recall transaction reads it first (recall.ts), which
 * saves this read its own transaction.
 */
export function graphRoutingFor(db: Database, orgId: string, agentId: string, now: Date, entityRuleLater: boolean): GraphRouting {
  return async (query, available, llmConfigured) => {
    const cypher = cypherRule(query, available);
    if (cypher || llmConfigured || entityRuleLater || !entityRuleApplies(query, now, available)) return cypher;
    return withTenantRead(db, orgId, (tx) => entityRule(tx, orgId, agentId, query, available));
  };
}
