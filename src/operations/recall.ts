// Recall operations: one recall as JSON (also the MCP tool recall) and the same recall as a stream
// of server-sent events. Recall reads: a POST that needs only memories:read.
import { RecallCancelledError } from "../data/queries/recall/common";
import { openRecall, recall } from "../domain/recall/recall";
import { type Operation, type StreamEvent, write } from "./operation";
import { RecallResponse, recallBody, toRecallInput } from "./schemas/recall";

const tags = ["Memories"];

const FRAMING = [
  "Server-sent events (`text/event-stream`). Errors found before the stream opens (authentication, validation, a CYPHER",
  "syntax error, the LLM router, ASK's LLM or the embedder failing with a problem) are ordinary problem responses with their status.",
  "Once the stream is open (status 200) it carries, in order: a comment line `: recall started` (sent at once, so",
  "clients and proxies see the response begin before the query finishes), then",
  "- `event: result`, `id: <rank>` (1-based), `data:` one result object as in POST /v1/memories/recall plus `rank`;",
  "- `event: summary`, `data:` `{count, strategy, routing, window, note, top_k, redactions}` — always the last event of a successful recall;",
  "- or, instead of the summary, `event: error`, `data:` an RFC 7807 problem object; the stream then ends.",
  "Every `data:` field is one line of JSON. Closing the connection cancels the database query; a cancelled recall is not audited.",
].join("\n");

const body = { from: "body", schema: recallBody } as const;

export const RECALL_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/memories/recall", "memories:read", "recall", {
    mcp: "recall",
    handler: {
      input: body,
      output: RecallResponse,
      errors: [400, 413, 415],
      docs: {
        tags,
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
      run: ({ deps, actor, signal }, input) => recall(deps, actor, toRecallInput(input), signal),
    },
  }),
  write("POST", "/v1/memories/recall/stream", "memories:read", "recall", {
    handler: {
      input: body,
      output: { eventStream: { opening: "recall started", description: FRAMING } },
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Recall memories as a server-sent-events stream",
        description: FRAMING,
      },
      // Planned now, so that its errors are problem responses; retrieved once the stream is open.
      run: async ({ deps, actor, signal }, input) => {
        const retrieve = await openRecall(deps, actor, toRecallInput(input), signal);
        return async function* (streaming: AbortSignal): AsyncIterable<StreamEvent> {
          let outcome: Awaited<ReturnType<typeof retrieve>>;
          try {
            outcome = await retrieve(streaming);
          } catch (error) {
            // The client went away: the stream just ends.
            if (error instanceof RecallCancelledError) return;
            throw error;
          }
          const { results, ...summary } = outcome;
          for (const [i, result] of results.entries())
            yield { event: "result", data: { rank: i + 1, ...result }, id: i + 1 };
          yield { event: "summary", data: { count: results.length, ...summary } };
        };
      },
    },
  }),
];
