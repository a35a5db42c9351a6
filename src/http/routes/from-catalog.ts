// The routes whose handler is their catalog entry's (src/operations/): the entry's schema validates
// the input once, before the handler, its docs describe the route in OpenAPI, and the handler only
// runs the entry with the caller.
import type { TSchema } from "@sinclair/typebox";
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../../operations/deps";
import type { Call, EventStream, Handler, Operation } from "../../operations";
import { OPERATIONS } from "../../operations";
import { authedErrorResponses, authedErrors } from "../../operations/schemas/common";
import { validationFailed } from "../../lib/errors";
import { describeSchema } from "../../lib/validation/describe-schema";
import { type Events, eventStreamResponse } from "../event-stream";
import { actorOf, contextOf, scopesOf } from "../request-context";

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
    scopes: scopesOf(request),
    signal: request.signal,
    field,
  };
}

/** A JSON response's schemas by status; a stream's are in its docs (`responses`, by hand). */
function documented(handler: Handler, status: number) {
  const { output, errors, rawBody } = handler;
  const docs = rawBody ? { ...handler.docs, requestBody: rawBody.openapi } : handler.docs;
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

/**
 * A JSON body that is not an object is refused in the validator's words before Elysia applies the
 * schema's defaults, which would turn a string or a list into an object a schema of optional fields
 * accepts (POST /v1/refine's).
 */
const objectBodyOnly =
  (schema: TSchema) =>
  ({ body }: { body: unknown }) => {
    if (body !== null && body !== undefined && (typeof body !== "object" || Array.isArray(body)))
      throw validationFailed([{ path: "/", message: `must be ${describeSchema(schema)}` }]);
  };

function bodySchema(schema: TSchema) {
  return { parse: "json" as const, transform: objectBodyOnly(schema), body: schema };
}

function catalogRoute(operation: Operation, handler: Handler, deps: Deps): AnyElysia {
  const { input, params, fromUrl, output, rawBody } = handler;
  const schema = rawBody
    ? // Keeps Elysia from reading the body; a JSON body was already parsed (and refused: 415).
      { parse: () => ({}) }
    : input === null
      ? {}
      : input.from === "body"
        ? bodySchema(input.schema(deps.config))
        : { query: input.schema(deps.config) };
  const field = fieldIn(input?.from ?? "query");
  const status = handler.status ?? 200;
  type Context = { request: Request; query: unknown; body: unknown; params: unknown; set: any };
  return new Elysia().route(
    operation.method,
    operation.path,
    async ({ request, query, body, params: values, set }: Context) => {
      const given = rawBody
        ? request
        : input?.from === "body"
          ? body
          : fromUrl
            ? fromUrl(request.url, query)
            : query;
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

/**
 * The routes of the entries with a handler at these paths, in this order (one path's methods in
 * catalog order): the route table lists them where their area's routes stood, so OpenAPI (and the
 * SDK made from it) keeps its order.
 */
export const catalogRoutesOf = (...paths: string[]) =>
  catalogRoutes(paths.flatMap((path) => OPERATIONS.filter((operation) => operation.path === path)));
