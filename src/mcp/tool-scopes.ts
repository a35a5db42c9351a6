// Which key scope each MCP tool needs: exactly its REST route's, both read from the tool's catalog
// entry (src/operations/), so a key can do over MCP what it can do over REST and no more. A tool
// the catalog does not name needs `admin` (closed by default).
import type { Scope } from "../lib/scopes";
import { operationOfTool } from "../operations";
import { requiredAccess, type RouteAccess } from "../http/route-scopes";

/**
 * Resources are reads of memories, agents or a conversation (GET /v1/memories…, /v1/agents,
 * …/conversations/{id}).
 */
export const RESOURCE_SCOPE: Scope = "memories:read";

export function toolAccess(name: string): RouteAccess {
  const operation = operationOfTool(name);
  return operation ? requiredAccess(operation.method, operation.path) : "admin";
}

/** Whether a key with `scopes` may call the tool: tools/list shows only these. */
export function toolAllowed(scopes: readonly Scope[], name: string): boolean {
  const access = toolAccess(name);
  return access === "any" || (access !== "superadmin" && scopes.includes(access));
}
