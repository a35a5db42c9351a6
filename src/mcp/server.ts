// Builds the MCP server over the domain: tools/list shows the gated-on tools the caller's key may
// call, with their REST schemas, tools/call validates like the REST route and runs the same domain
// code, and errors come back as MCP tool errors carrying the problem's title and detail. Transports
// (stdio, streamable HTTP) only differ in how they resolve the acting tenant for each call.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import pkg from "../../package.json";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../operations/deps";
import type { Actor } from "../domain/actor";
import { AppError } from "../lib/errors";
import { toAppError } from "../http/error-handler";
import { readResource, RESOURCE_TEMPLATES } from "./resources";
import { toolsFor } from "./tools";
import { validateToolInput } from "./validate-input";
import { requireScope, type Scope } from "../lib/scopes";
import { RESOURCE_SCOPE, toolAccess, toolAllowed } from "./tool-scopes";

/** The tenant acting for one call, and the scopes of its key. */
export type McpCaller = { actor: Actor; scopes: readonly Scope[] };

export type McpSession = {
  /**
   * Runs one call as its caller, re-checked for that call: may refuse (revoked key, empty
   * rate-limit bucket) with an AppError. A transport may also queue calls here, so a batch runs one
   * at a time.
   */
  withCaller: <T>(call: (caller: McpCaller) => Promise<T>) => Promise<T>;
};

/** The service's own version, so a client sees which svc it talks to. */
const SERVER_INFO = { name: "svc", version: pkg.version };

/**
 * The problem as an MCP tool error: title and detail in the text, the full problem as structured
 * content.
 */
export function toolError(error: AppError): CallToolResult {
  const problem = {
    slug: error.slug,
    title: error.title,
    status: error.status,
    detail: error.detail,
    ...error.extra.fields,
  };
  return {
    isError: true,
    content: [{ type: "text", text: `${error.title}: ${error.detail}` }],
    structuredContent: problem,
  };
}

const asJson = (value: unknown) => JSON.stringify(value, null, 2);

export function createMcpServer(deps: Deps, session: McpSession): Server {
  const tools = toolsFor(deps.gates);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      "svc: multi-tenant agent memory. Store with store_memory, search with recall, remove with forget; every call is audited under your API key's tenant.",
  });
  const appError = (error: unknown, actor: Actor | null) =>
    toAppError("MCP", error, deps.log, actor?.requestId ?? undefined);

  /**
   * The problem as a JSON-RPC error, for requests that are not tool calls (tools/list,
   * resources/read).
   */
  const rpcError = (error: unknown, actor: Actor | null) => {
    const problem = appError(error, actor);
    const code =
      problem.status === 404 || problem.status === 410
        ? ErrorCode.InvalidParams
        : problem.status < 500
          ? ErrorCode.InvalidRequest
          : ErrorCode.InternalError;
    return new McpError(code, `${problem.title}: ${problem.detail}`, {
      slug: problem.slug,
      status: problem.status,
    });
  };

  // Only the tools the caller's key may call: a memories:read key is not offered store or forget.
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    let caller: McpCaller;
    try {
      caller = await session.withCaller(async (c) => c);
    } catch (error) {
      throw rpcError(error, null);
    }
    return {
      tools: tools
        .filter((tool) => toolAllowed(caller.scopes, tool.name))
        .map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: JSON.parse(JSON.stringify(tool.inputSchema(deps))),
          annotations: { readOnlyHint: tool.readOnly },
        })),
    };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    let actor: Actor | null = null;
    try {
      return await session.withCaller(async (caller): Promise<CallToolResult> => {
        actor = caller.actor;
        const access = toolAccess(tool.name);
        if (access !== "any" && access !== "superadmin")
          requireScope(caller.scopes, access, `The tool ${tool.name}`);
        const input = validateToolInput(
          tool.inputSchema(deps),
          request.params.arguments,
          deps.config,
        );
        const result = await tool.run({ deps, ...caller, signal: extra.signal }, input);
        return { content: [{ type: "text", text: asJson(result) }] };
      });
    } catch (error) {
      return toolError(appError(error, actor));
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    let actor: Actor | null = null;
    try {
      const value = await session.withCaller(async (caller) => {
        actor = caller.actor;
        requireScope(caller.scopes, RESOURCE_SCOPE, "Reading a resource");
        return readResource(deps, caller.actor, request.params.uri);
      });
      return {
        contents: [{ uri: request.params.uri, mimeType: "application/json", text: asJson(value) }],
      };
    } catch (error) {
      throw rpcError(error, actor);
    }
  });
  return server;
}
