// POST /v1/memories/recall/stream: the same recall as server-sent events, one event per result.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { RecallCancelledError } from "../../../data/queries/recall-common";
import { openRecall, type RecallOutcome } from "../../../domain/recall/recall";
import { toAppError } from "../../error-handler";
import { problemResponse, problemTypeBase } from "../../problem";
import { actorOf, contextOf } from "../../request-context";
import { authedErrorResponses } from "../../../operations/schemas/common";
import { recallBody, toRecallInput } from "../../../operations/schemas/recall";

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

const frame = (event: string, data: unknown, id?: number) =>
  `event: ${event}\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;

function eventStream(
  deps: Deps,
  run: (signal?: AbortSignal) => Promise<RecallOutcome>,
  request: Request,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  request.signal?.addEventListener("abort", () => abort.abort(), { once: true });
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      send(": recall started\n\n");
      try {
        const { results, ...summary } = await run(abort.signal);
        results.forEach((result, i) => send(frame("result", { rank: i + 1, ...result }, i + 1)));
        send(frame("summary", { count: results.length, ...summary }));
      } catch (error) {
        if (error instanceof RecallCancelledError || abort.signal.aborted) return;
        const requestId = contextOf(request)?.requestId;
        const problem = problemResponse(
          toAppError("STREAM", error, deps.log, requestId),
          request,
          problemTypeBase(deps.config),
          requestId,
        );
        send(frame("error", await problem.json()));
      } finally {
        if (!abort.signal.aborted) controller.close();
      }
    },
    cancel() {
      abort.abort();
    },
  });
}

export const recallStreamRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/memories/recall/stream",
    async ({ request, body }) => {
      const run = await openRecall(deps, actorOf(request), toRecallInput(body), request.signal);
      return new Response(eventStream(deps, run, request), {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache",
          "x-accel-buffering": "no",
        },
      });
    },
    {
      parse: "json",
      body: recallBody(deps.config),
      detail: {
        tags: ["Memories"],
        summary: "Recall memories as a server-sent-events stream",
        description: FRAMING,
        // Documented by hand: a `response` map would replace these, and the stream itself is not
        // JSON.
        responses: {
          200: {
            description: "The event stream",
            content: { "text/event-stream": { schema: { type: "string", description: FRAMING } } },
          },
          ...authedErrorResponses(400, 413, 415),
        },
      },
    },
  );
