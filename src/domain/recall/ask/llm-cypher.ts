// ASK's optional NL→CYPHER step (ASK_LLM_CYPHER): the LLM writes one query in our read-only subset;
// our parser and checker validate it, and a rejected query goes back once with the parser's error.
// The query then runs like a pinned CYPHER (own READ ONLY tenant transaction, caps, timeout); what
// it returns only adds candidate facts, which the answer step still has to cite.
import type { Config } from "../../../config/schema";
import type { Database } from "../../../data/pools";
import type { LlmProvider } from "../../../providers/llm/port";
import { AppError } from "../../../lib/errors";
import { CypherError } from "../../../data/queries/graph/cypher/errors";
import { checkedCypher, queryGraph } from "../../graph/cypher-query";
import { MEMO_TYPE_NAMES } from "../../graph/memo-types";
import { DEFAULT_RELATION_TYPES } from "../../graph/relations";
import { parseJsonAnswer } from "../../forge/refine/llm-budget";

type CypherConfig = Pick<
  Config,
  "CYPHER_TIMEOUT_MS" | "CYPHER_MAX_HOPS" | "CYPHER_FANOUT" | "CYPHER_WALK_ROWS" | "CYPHER_MAX_ROWS"
>;

export type Translation =
  | { query: string; edgeIds: string[]; memoIds: string[]; rows: number }
  | { query: null; why: string };

const SYSTEM =
  "You translate a question about an AI agent's knowledge graph into ONE read-only openCypher query of this subset: " +
  "MATCH patterns (fixed or bounded variable-length relationships), WHERE (comparisons, AND/OR/NOT, IN, STARTS WITH, ENDS WITH, CONTAINS, IS NULL), " +
  "RETURN [DISTINCT] with aliases, ORDER BY, SKIP, LIMIT; functions count, id, type, labels, length, toLower, coalesce. " +
  "No CREATE, MERGE, SET, DELETE, REMOVE, CALL, UNWIND, WITH, OPTIONAL MATCH or =~. " +
  `Node labels are: ${MEMO_TYPE_NAMES.join(", ")}. Nodes have the property name. ` +
  `Relationship types include: ${Object.keys(DEFAULT_RELATION_TYPES).join(", ")}. Relationships have the properties fact, valid_at, invalid_at, weight. ` +
  "Compare names case-insensitively with toLower(n.name) = 'alice'. Return the relationships you match (RETURN r.fact AS fact, …). " +
  'Answer with a JSON object {"cypher": "<query>"}, or {"cypher": null} when the question cannot be written in the subset.';

async function propose(
  llm: LlmProvider,
  orgId: string,
  question: string,
  previous: { query: string; error: string } | null,
): Promise<string | null> {
  const retry = previous
    ? `\n\nYour previous query\n${previous.query}\nwas rejected: ${previous.error}\nWrite a corrected query.`
    : "";
  const answer = await llm.complete(
    {
      system: SYSTEM,
      prompt: `Question: ${JSON.stringify(question)}${retry}`,
      json: true,
      maxTokens: 300,
    },
    { orgId },
  );
  const cypher = parseJsonAnswer(answer.text)?.cypher;
  return typeof cypher === "string" && cypher.trim() !== "" ? cypher.trim() : null;
}

/**
 * Why a proposed query cannot run: the parser's or checker's message with its position, or null
 * when it passes.
 */
function rejection(query: string, config: CypherConfig): string | null {
  try {
    checkedCypher(query, {}, config);
    return null;
  } catch (error) {
    if (error instanceof CypherError)
      return `${error.message} (at line ${error.pos.line}, column ${error.pos.column})`;
    throw error;
  }
}

/**
 * At most two LLM calls; LlmUnavailableError and AppErrors (budget-exceeded) propagate to the
 * caller.
 */
export async function translateToCypher(
  deps: { llm: LlmProvider; db: Database; config: CypherConfig },
  q: { orgId: string; agentId: string; question: string; asOf: Date | null },
): Promise<Translation> {
  let previous: { query: string; error: string } | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const query = await propose(deps.llm, q.orgId, q.question, previous);
    if (!query)
      return { query: null, why: "the LLM found no query in the subset for this question" };
    const error = rejection(query, deps.config);
    if (error) {
      previous = { query, error };
      continue;
    }
    try {
      const result = await queryGraph(deps.db, deps.config, {
        orgId: q.orgId,
        agentId: q.agentId,
        text: query,
        params: {},
        asOf: q.asOf,
      });
      return { query, edgeIds: result.edgeIds, memoIds: result.memoIds, rows: result.rows.length };
    } catch (failure) {
      // A validated query can still fail at run time (timeout, a missing $parameter): not worth a
      // retry.
      if (failure instanceof AppError && failure.slug === "validation-failed")
        return { query: null, why: `the translated query could not run: ${failure.detail}` };
      throw failure;
    }
  }
  return { query: null, why: `the translated query was rejected twice: ${previous!.error}` };
}
