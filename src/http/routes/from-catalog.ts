// The routes whose handler is their catalog entry's (src/operations/): the entry's schema validates
// the input once, before the handler, its docs describe the route in OpenAPI, and the handler only
// runs the entry with the caller.
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../../app/deps";
import { type Handler, OPERATIONS, type Operation } from "../../operations";
import { authedErrors } from "../../operations/schemas/common";
import { actorOf } from "../request-context";

/** REST names a query field `query:/name` and a body field `/name` in its 422s. */
const fieldIn = (from: "query" | "body") =>
  from === "query" ? (name: string) => `query:/${name}` : (name: string) => `/${name}`;

function catalogRoute(operation: Operation, handler: Handler, deps: Deps): AnyElysia {
  const { input } = handler;
  const schema =
    input === null
      ? {}
      : input.from === "body"
        ? { parse: "json" as const, body: input.schema(deps.config) }
        : { query: input.schema(deps.config) };
  const field = fieldIn(input?.from ?? "query");
  return new Elysia().route(
    operation.method,
    operation.path,
    ({ request, query, body }: { request: Request; query: unknown; body: unknown }) =>
      handler.run(
        { deps, actor: actorOf(request), signal: request.signal, field },
        input?.from === "body" ? body : query,
      ),
    {
      ...schema,
      response: { 200: handler.output, ...authedErrors(...handler.errors) },
      detail: handler.docs,
    },
  );
}

/** One route factory per catalog entry with a handler, in catalog order. */
export const CATALOG_ROUTES: ReadonlyArray<(deps: Deps) => AnyElysia> = OPERATIONS.flatMap(
  (operation) => {
    const { handler } = operation;
    return handler ? [(deps: Deps) => catalogRoute(operation, handler, deps)] : [];
  },
);
