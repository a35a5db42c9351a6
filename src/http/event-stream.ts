// A streaming operation's response: server-sent events (text/event-stream). The opening comment
// goes out at once, so clients and proxies see the response begin before the first event; a
// failure once the stream is open becomes an `error` event carrying its problem, since the status
// is already sent. Closing the connection aborts the events' signal.
import type { Deps } from "../operations/deps";
import type { StreamEvent } from "../operations";
import { toAppError } from "./error-handler";
import { problemResponse, problemTypeBase } from "./problem";
import { contextOf } from "./request-context";

export type Events = (signal: AbortSignal) => AsyncIterable<StreamEvent>;

const frame = ({ event, data, id }: StreamEvent) =>
  `event: ${event}\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;

function eventStream(
  deps: Deps,
  opening: string,
  events: Events,
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
      send(`: ${opening}\n\n`);
      try {
        for await (const event of events(abort.signal)) send(frame(event));
      } catch (error) {
        if (abort.signal.aborted) return;
        const requestId = contextOf(request)?.requestId;
        const problem = problemResponse(
          toAppError("STREAM", error, deps.log, requestId),
          request,
          problemTypeBase(deps.config),
          requestId,
        );
        send(frame({ event: "error", data: await problem.json() }));
      } finally {
        if (!abort.signal.aborted) controller.close();
      }
    },
    cancel() {
      abort.abort();
    },
  });
}

export const eventStreamResponse = (
  deps: Deps,
  opening: string,
  events: Events,
  request: Request,
): Response =>
  new Response(eventStream(deps, opening, events, request), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      // nginx buffers responses unless told not to; a buffered stream arrives all at once.
      "x-accel-buffering": "no",
    },
  });
