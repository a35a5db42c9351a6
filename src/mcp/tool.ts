// One MCP tool: a name, the REST route's own TypeBox body schema as its input schema, and a run
// function that calls the same domain code as that route. Its route and gate are its catalog
// entry's, and so are its schema and run once the route's handler lives in the catalog
// (catalogTool).
import type { TSchema } from "@sinclair/typebox";
import type { Deps } from "../operations/deps";
import type { Actor } from "../domain/actor";
import type { Scope } from "../lib/scopes";
import { type Handler, operationOfTool } from "../operations";

export type ToolCall = { deps: Deps; actor: Actor; scopes: readonly Scope[]; signal: AbortSignal };

export type McpTool = {
  name: string;
  description: string;
  /** Built from config like the REST schemas (limits such as MEMORY_BATCH_MAX appear in it). */
  inputSchema: (deps: Deps) => TSchema;
  readOnly: boolean;
  run: (call: ToolCall, input: any) => Promise<unknown>;
};

/**
 * A tool whose schema and run are its catalog entry's (src/operations/): REST's input, or the
 * entry's own `tool` arguments where they differ. It reads when its entry is a GET or needs only a
 * read scope (recall is a POST that reads).
 */
export function catalogTool(name: string, description: string): McpTool {
  const operation = operationOfTool(name);
  const handler = operation?.handler;
  const tool = handler?.tool ?? restArguments(handler);
  if (!operation || !handler || !tool)
    throw new Error(`${name}: no catalog entry with tool arguments or an input and no parameters`);
  return {
    name,
    description,
    inputSchema: (deps) => tool.schema(deps.config),
    readOnly: operation.method === "GET" || operation.access.endsWith(":read"),
    run: ({ deps, actor, scopes, signal }, args) => {
      const { input, params } = tool.split(args);
      const caller = { role: "tenant" as const, requestId: actor.requestId };
      const call = { deps, actor, caller, scopes, signal, field: (field: string) => field };
      return Promise.resolve(handler.run(call, input, params));
    },
  };
}

/** A tool takes one object of arguments: REST's input serves when the path has no parameters. */
function restArguments(handler: Handler | undefined): Handler["tool"] {
  const input = handler?.input;
  if (!input || handler.params) return undefined;
  return { schema: input.schema, split: (args) => ({ input: args, params: {} }) };
}
