// Graph queries through recall: the CYPHER subset's caps and time budget, and how ASK answers.
import { Type as T } from "@sinclair/typebox";

export const graphQuerySection = {
  CYPHER_TIMEOUT_MS: T.Integer({
    default: 3000,
    minimum: 50,
    maximum: 60000,
    description:
      "statement_timeout of a CYPHER query's read-only transaction; a query that needs longer is a 422",
  }),
  CYPHER_MAX_HOPS: T.Integer({
    default: 5,
    minimum: 1,
    maximum: 10,
    description: "Longest variable-length relationship (*..n); an unbounded * means this many hops",
  }),
  CYPHER_FANOUT: T.Integer({
    default: 50,
    minimum: 1,
    maximum: 1000,
    description: "Edges a variable-length walk follows per node and hop (highest weight first)",
  }),
  CYPHER_WALK_ROWS: T.Integer({
    default: 5000,
    minimum: 10,
    maximum: 100000,
    description: "Rows one variable-length walk may yield per start node",
  }),
  CYPHER_MAX_ROWS: T.Integer({
    default: 200,
    minimum: 1,
    maximum: 10000,
    description:
      "Rows a CYPHER table returns at most (LIMIT is clamped to it; the response says when rows were cut)",
  }),
  ASK_MIN_CONFIDENCE: T.Number({
    default: 0.35,
    minimum: 0,
    maximum: 1,
    description: 'ASK answers "I don\'t know" when its best supported answer scores below this',
  }),
  ASK_LLM_CYPHER: T.Boolean({
    default: true,
    description:
      "With an LLM configured, ASK also has the question translated into the CYPHER subset (validated by the parser, retried once)",
  }),
};
