// AUTO's graph rules: a query written in Cypher goes to CYPHER alone (with or without an LLM: it is
// a syntactic fact, and a near-miss gets CYPHER's positioned 422 instead of a useless text search);
// without an LLM, a question about an entity the agent's graph knows adds ASK (a direct question
// about one relation) or GRAPH (a path between several) to AUTO's fusion. With an LLM its choice
// weights those.
import type { Tx } from "../../../data/pools";
import { parseCypher } from "../../../data/queries/graph/cypher/parser";
import { seedsFromQuery } from "../../graph/seeds";
import { readQuestion } from "../ask/question";
import type { ConcreteStrategyName } from "../strategy";
import type { ParsedTime } from "../time-expressions";

export type GraphDecision = { strategy: ConcreteStrategyName; reason: string };

/** Starts like a Cypher statement: a clause keyword, then a pattern or procedure. */
const CYPHER_START =
  /^\s*(?:MATCH|OPTIONAL\s+MATCH|CREATE|MERGE|CALL|UNWIND|LOAD\s+CSV|DETACH\s+DELETE)\b[\s\S]*[(]/i;

export function looksLikeCypher(query: string): "parses" | "near-miss" | null {
  try {
    parseCypher(query);
    return "parses";
  } catch {
    return CYPHER_START.test(query) ? "near-miss" : null;
  }
}

export function cypherRule(
  query: string,
  available: ReadonlySet<ConcreteStrategyName>,
): GraphDecision | null {
  if (!available.has("CYPHER")) return null;
  const shape = looksLikeCypher(query);
  if (shape === "parses")
    return { strategy: "CYPHER", reason: "the query parses as the CYPHER subset" };
  if (shape === "near-miss")
    return {
      strategy: "CYPHER",
      reason: "the query is written in Cypher (CYPHER explains what it cannot run)",
    };
  return null;
}

/** A question: ends with "?", or opens with a wh-word or an auxiliary verb. */
const QUESTION =
  /\?\s*$|^\s*(?:who|whom|whose|what|which|where|when|how|does|do|did|is|are|was|were|has|have|can)\b/i;

/**
 * Whether the entity rule can decide this query: a question without a time expression, ASK or GRAPH
 * available.
 */
export function entityRuleApplies(
  query: string,
  time: ParsedTime,
  available: ReadonlySet<ConcreteStrategyName>,
): boolean {
  if (!QUESTION.test(query) || (!available.has("ASK") && !available.has("GRAPH"))) return false;
  return !time.window && !time.anchor;
}

/**
 * Without an LLM: a question naming a memo of the agent's graph goes to ASK when it asks about a
 * relation the question reader recognises ("who is Alice's manager"), to GRAPH when it names two or
 * more memos and no relation ("how is Alice connected to Carol": a path question). A question with
 * a time expression is left to the other retrievers. The caller has checked entityRuleApplies; the
 * read is on its transaction.
 */
export async function entityRule(
  tx: Tx,
  orgId: string,
  agentId: string,
  query: string,
  available: ReadonlySet<ConcreteStrategyName>,
): Promise<GraphDecision | null> {
  const seeds = await seedsFromQuery(tx, orgId, agentId, query, 4);
  if (seeds.length === 0) return null;
  const names = seeds.map((s) => s.memo.name);
  const at = query.toLowerCase().indexOf(seeds[0]!.matched);
  const cue = readQuestion(query, at).cues[0];
  if (cue && available.has("ASK"))
    return {
      strategy: "ASK",
      reason: `a question about ${names[0]}'s ${cue.relation} relation ("${cue.cue}"), and ${names[0]} is in the agent's graph`,
    };
  if (seeds.length >= 2 && available.has("GRAPH"))
    return {
      strategy: "GRAPH",
      reason: `a question connecting ${names.slice(0, 3).join(", ")}, which are in the agent's graph`,
    };
  return null;
}
