// One MCP tool: a name, the REST route's own TypeBox body schema as its input schema, and a run
// function that calls the same domain code as that route. Its route and gate are its catalog
// entry's, and so are its schema and run once the route's handler lives in the catalog
// (catalogTool).
import type { TSchema } from "@sinclair/typebox";
import type { Deps } from "../app/deps";
import type { Actor } from "../domain/actor";
import type { Scope } from "../domain/keys/scopes";
import { operationOfTool } from "../operations";

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
 * A tool whose schema and run are its catalog entry's (src/operations/); GET entries are read-only.
 */
export function catalogTool(name: string, description: string): McpTool {
  const operation = operationOfTool(name);
  const handler = operation?.handler;
  // A tool takes one object of arguments: an entry with path parameters needs a mapping first.
  if (!operation || !handler?.input || handler.params)
    throw new Error(`${name}: no catalog entry with an input and no path parameters`);
  const { input } = handler;
  return {
    name,
    description,
    inputSchema: (deps) => input.schema(deps.config),
    readOnly: operation.method === "GET",
    run: (call, args) =>
      Promise.resolve(handler.run({ ...call, field: (field) => field }, args, {})),
  };
}
