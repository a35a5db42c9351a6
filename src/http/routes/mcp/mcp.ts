// POST /mcp: the MCP streamable-HTTP transport, stateless (one server per request, JSON responses). The
// pipeline in front of it is the REST one (API key, tenant, rate limit per HTTP request, access log), so
// a tool call acts exactly as its REST route would. Hidden from OpenAPI: it speaks JSON-RPC, not REST.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { createMcpServer } from "../../../mcp/server";
import { actorOf, scopesOf } from "../../request-context";

/** Stateless servers keep no stream open, so GET (server-to-client stream) and DELETE (end session) are refused. */
const methodNotAllowed = () => new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages" }, id: null }), {
  status: 405, headers: { "content-type": "application/json", allow: "POST" },
});

/**
 * The transport wants `Accept: application/json, text/event-stream` (406 otherwise). This endpoint only
 * answers JSON, so a request that states no preference (no Accept, or any type) is taken as asking for it;
 * an Accept that names other types only is still a 406 (docs/mcp.md).
 */
function withDefaultAccept(request: Request): Request {
  const accept = request.headers.get("accept")?.trim() ?? "";
  if (accept !== "" && accept !== "*/*") return request;
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request, { headers });
}

export const mcpRoute = (deps: Deps) => new Elysia()
  .post("/mcp", async ({ request, body }) => {
    const caller = { actor: actorOf(request), scopes: scopesOf(request) };
    const server = createMcpServer(deps, { actorForCall: async () => caller });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(withDefaultAccept(request), { parsedBody: body });
    } finally {
      await server.close();
    }
  }, { parse: "json", detail: { hide: true } })
  .get("/mcp", methodNotAllowed, { detail: { hide: true } })
  .delete("/mcp", methodNotAllowed, { detail: { hide: true } });
