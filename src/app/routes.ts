// The route table the app mounts: HTTP's routes (src/http/routes/) and the MCP endpoint. MCP sits
// above HTTP (its tools answer through HTTP's pipeline and schemas), so only the composition root
// joins them.
import { ROUTES as HTTP_ROUTES, type RouteFactory } from "../http/routes";
import { mcpRoute } from "../mcp/http-route";

export const ROUTES: readonly RouteFactory[] = [...HTTP_ROUTES, mcpRoute];
