// One MCP tool: a name, the REST route's own TypeBox body schema as its input schema, the gate that
// mounts it, and a run function that calls the same domain code as that route.
import type { TSchema } from "@sinclair/typebox";
import type { Deps } from "../app/deps";
import type { Gates } from "../config/gates";
import type { Actor } from "../domain/actor";

export type ToolCall = { deps: Deps; actor: Actor; signal: AbortSignal };

export type McpTool = {
  name: string;
  description: string;
  /** Built from config like the REST schemas (limits such as MEMORY_BATCH_MAX appear in it). */
  inputSchema: (deps: Deps) => TSchema;
  gate: (gates: Gates) => boolean;
  readOnly: boolean;
  run: (call: ToolCall, input: any) => Promise<unknown>;
};

export const always = () => true;
