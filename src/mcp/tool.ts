// One MCP tool: a name, the REST route's own TypeBox body schema as its input schema, and a run
// function that calls the same domain code as that route. Its route and gate are its catalog entry's.
import type { TSchema } from "@sinclair/typebox";
import type { Deps } from "../app/deps";
import type { Actor } from "../domain/actor";

export type ToolCall = { deps: Deps; actor: Actor; signal: AbortSignal };

export type McpTool = {
  name: string;
  description: string;
  /** Built from config like the REST schemas (limits such as MEMORY_BATCH_MAX appear in it). */
  inputSchema: (deps: Deps) => TSchema;
  readOnly: boolean;
  run: (call: ToolCall, input: any) => Promise<unknown>;
};
