// POST /v1/memories/recall: retrieve an agent's current memories by query with one strategy.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { recall } from "../../../domain/recall/recall";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { recallBody, RecallResponse, toRecallInput } from "../../../operations/schemas/recall";

export const recallRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/memories/recall",
    async ({ request, body }) => {
      return recall(deps, actorOf(request), toRecallInput(body), request.signal);
    },
    {
      parse: "json",
      body: recallBody(deps.config),
      response: { 200: RecallResponse, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Memories"],
        summary: "Recall memories by query",
        description:
          "Searches the agent's current (not forgotten, not expired) memories. `strategy` defaults to AUTO, " +
          "which fuses the retrievers that fit the query (LEXICAL always, VECTOR, CODE on code-shaped queries, the graph when the agent has one; a time expression ranks, never filters) " +
          "and re-ranks them; each result lists its `retrievers`, and `routing` says how they were weighted (an LLM, when configured, only weights them). " +
          "GRAPH, TRIPLET and TRACE read the knowledge graph built by distill and add a `graph` section (facts, paths, each citing memory versions); `as_of` reads it at an event time. " +
          "With CYPHER the query is a read-only openCypher query (`params` fills its $parameters; docs/cypher.md); a syntax error or a clause outside the subset is a 422 naming the token, line and column. " +
          'ASK answers a natural-language question from the graph: `graph.answer` (text, citations to memory versions, confidence; `known: false` is "I don\'t know") and the supporting memories as results (docs/recall.md, section ASK). ' +
          "Options: `fusion` ranks by reciprocal-rank fusion of several strategies (the response's `fusion` lists them), `rerank` reorders the first results by one LLM call, " +
          "`context` attaches the neighbouring turns of conversation turns (docs/recall.md). " +
          "Each recall writes one audit row (operation `recall`) in the transaction that reads the results.",
      },
    },
  );
