// The routes whose handler is their catalog entry's (src/operations/): the entry's schema validates
// the input once, before the handler, its docs describe the route in OpenAPI, and the handler only
// runs the entry with the caller.
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../../app/deps";
import type { Handler, Operation } from "../../operations";
import { authedErrors } from "../../operations/schemas/common";
import { actorOf } from "../request-context";

/** REST names a query field `query:/name` and a body field `/name` in its 422s. */
const fieldIn = (from: "query" | "body") =>
  from === "query" ? (name: string) => `query:/${name}` : (name: string) => `/${name}`;

function catalogRoute(operation: Operation, handler: Handler, deps: Deps): AnyElysia {
  const { input, params } = handler;
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
      const call = { deps, actor: actorOf(request), signal: request.signal, field };
      const result = await handler.run(call, input?.from === "body" ? body : query, values);
      set.status = status;
      return result;
    },
    {
      ...schema,
      ...(params ? { params } : {}),
      response: { [status]: handler.output, ...authedErrors(...handler.errors) },
      detail: handler.docs,
    },
  );
}

/** One route factory per entry of `operations` with a handler, in their order. */
export const catalogRoutes = (operations: readonly Operation[]): Array<(deps: Deps) => AnyElysia> =>
  operations.flatMap((operation) => {
    const { handler } = operation;
    return handler ? [(deps: Deps) => catalogRoute(operation, handler, deps)] : [];
  });
