// Agent-facing surfaces: the MCP server over stdio (`svc mcp`).
import { Type as T } from "@sinclair/typebox";

export const agentsSection = {
  SVC_MCP_API_KEY: T.Optional(
    T.String({
      minLength: 1,
      description:
        "`svc mcp` (stdio): the API key whose tenant the MCP client acts as (or pass --key); checked like a REST key on every call",
    }),
  ),
};
