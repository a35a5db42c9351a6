// The routes whose handler is their catalog entry's (src/operations/): the entry's schema validates
// the input once, before the handler, its docs describe the route in OpenAPI, and the handler only
// runs the entry with the caller.
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../../app/deps";
import type { Call, EventStream, Handler, Operation } from "../../operations";
import { authedErrorResponses, authedErrors } from "../../operations/schemas/common";
import { type Events, eventStreamResponse } from "../event-stream";
import { actorOf, contextOf } from "../request-context";

/** REST names a query field `query:/name` and a body field `/name` in its 422s. */
const fieldIn = (from: "query" | "body") =>
  from === "query" ? (name: string) => `query:/${name}` : (name: string) => `/${name}`;

const isStream = (output: Handler["output"]): output is EventStream => "eventStream" in output;

/**
 * The caller of a request. An entry for tenant keys refuses any other caller (a 403 for the
 * superadmin key, which has no tenant) before its run, whether or not the run reads the actor; a
 * superadmin or public entry's actor is read only if its run reads it.
 */
function callOf(deps: Deps, operation: Operation, request: Request, field: Call["field"]): Call {
  const context = contextOf(request);
  const noTenant = operation.access === "superadmin" || operation.access === "public";
  const actor = noTenant ? undefined : actorOf(request);
  return {
    deps,
    get actor() {
      return actor ?? actorOf(request);
    },
    caller: { role: context?.identity?.role, requestId: context?.requestId ?? null },
    signal: request.signal,
    field,
  };
}

/** A JSON response's schemas by status; a stream's are in its docs (`responses`, by hand). */
function documented(handler: Handler, status: number) {
  const { output, errors, docs } = handler;
  if (!isStream(output))
    return { response: { [status]: output, ...authedErrors(...errors) }, detail: docs };
  const { description } = output.eventStream;
  const stream = { "text/event-stream": { schema: { type: "string", description } } };
  const responses = {
    [status]: { description: "The event stream", content: stream },
    ...authedErrorResponses(...errors),
  };
  return { detail: { ...docs, responses } };
}

function catalogRoute(operation: Operation, handler: Handler, deps: Deps): AnyElysia {
  const { input, params, fromUrl, output } = handler;
  const schema =
    input === null
      ? {}
      : input.from === "body"
        ? { parse: "json" as const, body: input.schema(deps.config) }
        : { query: input.schema(deps.config) };
  const field = fieldIn(input?.from ?? "query");
  const status = handler.status ?? 200;
  type Context = { request: Request; query: unknown; body: unknown; params: unknown; set: any };
  return new Elysia().route(
    operation.method,
    operation.path,
    async ({ request, query, body, params: values, set }: Context) => {
      const given = input?.from === "body" ? body : fromUrl ? fromUrl(request.url, query) : query;
      const result = await handler.run(callOf(deps, operation, request, field), given, values);
      if (isStream(output))
        return eventStreamResponse(deps, output.eventStream.opening, result as Events, request);
      set.status = status;
      return result;
    },
    { ...schema, ...(params ? { params } : {}), ...documented(handler, status) },
  );
}

/** One route factory per entry of `operations` with a handler, in their order. */
export const catalogRoutes = (operations: readonly Operation[]): Array<(deps: Deps) => AnyElysia> =>
  operations.flatMap((operation) => {
    const { handler } = operation;
    return handler ? [(deps: Deps) => catalogRoute(operation, handler, deps)] : [];
  });
