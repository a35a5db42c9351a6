// Which key scope each MCP tool needs: exactly its REST route's (src/http/route-scopes.ts), so a key can
// do over MCP what it can do over REST and no more. A tool missing here needs `admin` (closed by default);
// test/http/key-scopes-mcp.test.ts checks every tool is listed.
import { ownValue } from "../lib/own-key";
import type { Scope } from "../domain/keys/scopes";
import { requiredAccess, type RouteAccess } from "../http/route-scopes";

export const TOOL_ROUTES: Readonly<Record<string, readonly [method: string, route: string]>> = {
  store_memory: ["POST", "/v1/memories"],
  store_memories: ["POST", "/v1/memories/batch"],
  recall: ["POST", "/v1/memories/recall"],
  forget: ["POST", "/v1/memories/forget"],
  list_memories: ["GET", "/v1/memories"],
  get_memory: ["GET", "/v1/memories/:memory_id"],
  memory_history: ["GET", "/v1/memories/:memory_id/history"],
  audit_query: ["GET", "/v1/audit"],
  distill: ["POST", "/v1/distill"],
  graph_query: ["GET", "/v1/graph/data"],
  ingest: ["POST", "/v1/ingest"],
  refine: ["POST", "/v1/refine"],
  feedback: ["POST", "/v1/feedback"],
};

/** Resources are reads of memories, agents or a conversation (GET /v1/memories…, /v1/agents, …/conversations/{id}). */
export const RESOURCE_SCOPE: Scope = "memories:read";

export function toolAccess(name: string): RouteAccess {
  const route = ownValue(TOOL_ROUTES, name);
  return route ? requiredAccess(route[0], route[1]) : "admin";
}

/** Whether a key with `scopes` may call the tool: tools/list shows only these. */
export function toolAllowed(scopes: readonly Scope[], name: string): boolean {
  const access = toolAccess(name);
  return access === "any" || (access !== "superadmin" && scopes.includes(access));
}
