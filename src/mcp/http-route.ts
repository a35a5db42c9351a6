// POST /mcp: the MCP streamable-HTTP transport, stateless (one server per request, JSON responses).
// The pipeline in front of it is the REST one (API key, tenant, rate limit, access log), so a tool
// call acts exactly as its REST route would. A JSON-RPC batch is no discount: its calls run one at
// a time, and each call after the first re-checks the key (a revoked key's batch stops) and takes
// its own rate-limit token. Hidden from OpenAPI: it speaks JSON-RPC, not REST.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import type { Deps } from "../operations/deps";
import { tenantBucketPolicyOf } from "../domain/ratelimit/tenant-policy";
import { createMcpServer, type McpCaller, type McpSession } from "./server";
import { presentedKey } from "../http/pipeline/5-authenticate";
import { takeRequestTokens } from "../http/pipeline/6-rate-limit";
import { actorOf, scopesOf } from "../http/request-context";
import { batchRefusal } from "./batch-rules";

/**
 * Stateless servers keep no stream open, so GET (server-to-client stream) and DELETE (end session)
 * are refused.
 */
const methodNotAllowed = () =>
  new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages",
      },
      id: null,
    }),
    {
      status: 405,
      headers: { "content-type": "application/json", allow: "POST" },
    },
  );

/**
 * The caller of each call of one HTTP request. The first call is the one the pipeline authenticated
 * and charged; every later call (a batch) authenticates the key again and takes a token of its own.
 */
function httpSession(deps: Deps, request: Request): McpSession {
  const first: McpCaller = { actor: actorOf(request), scopes: scopesOf(request) };
  const key = presentedKey(request.headers)!;
  let calls = 0;
  let turn: Promise<unknown> = Promise.resolve();

  const callerOfNextCall = async (): Promise<McpCaller> => {
    if (calls++ === 0) return first;
    const identity = await deps.authenticate(key);
    if (deps.config.RATE_LIMIT_ENABLED) {
      const tenantPolicy = tenantBucketPolicyOf(deps.config);
      const { refusal } = await takeRequestTokens(
        deps.limiter,
        { role: "tenant", ...identity },
        deps.bucketPolicy,
        tenantPolicy,
      );
      if (refusal) throw refusal;
    }
    return { actor: { ...first.actor, keyId: identity.keyId }, scopes: identity.scopes };
  };

  return {
    withCaller: (call) => {
      const result = turn.then(async () => call(await callerOfNextCall()));
      turn = result.catch(() => undefined);
      return result;
    },
  };
}

/**
 * The transport wants `Accept: application/json, text/event-stream` (406 otherwise). This endpoint
 * only answers JSON, so a request that states no preference (no Accept, or any type) is taken as
 * asking for it; an Accept that names other types only is still a 406 (docs/mcp.md).
 */
function withDefaultAccept(request: Request): Request {
  const accept = request.headers.get("accept")?.trim() ?? "";
  if (accept !== "" && accept !== "*/*") return request;
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request, { headers });
}

export const mcpRoute = (deps: Deps) =>
  new Elysia()
    .post(
      "/mcp",
      async ({ request, body }) => {
        const refusal = batchRefusal(body);
        if (refusal) return refusal;
        const server = createMcpServer(deps, httpSession(deps, request));
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        try {
          return await transport.handleRequest(withDefaultAccept(request), { parsedBody: body });
        } finally {
          await server.close();
        }
      },
      { parse: "json", detail: { hide: true } },
    )
    .get("/mcp", methodNotAllowed, { detail: { hide: true } })
    .delete("/mcp", methodNotAllowed, { detail: { hide: true } });
