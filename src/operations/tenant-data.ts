// Operations on the tenant's data as a whole: export, erasure, webhooks, and the MCP transport.
import { type Operation, read, write } from "./operation";

export const TENANT_DATA_OPERATIONS: readonly Operation[] = [
  read("/v1/export", "export"),
  // Erasure destroys content beyond recovery: admin only (docs/erasure.md).
  write("POST", "/v1/erasures", "admin", "erasure"),
  read("/v1/erasures/:erasure_id", "admin"),
  write("POST", "/v1/webhooks", "admin", "webhook.create"),
  read("/v1/webhooks", "admin"),
  read("/v1/webhooks/:endpoint_id", "admin"),
  write("DELETE", "/v1/webhooks/:endpoint_id", "admin", "webhook.delete"),
  write("POST", "/v1/webhooks/:endpoint_id/rotate-secret", "admin", "webhook.rotate_secret"),
  read("/v1/webhooks/:endpoint_id/deliveries", "admin"),
  // The MCP transport: any key; each tool call then needs its own operation's scope.
  write("POST", "/mcp", "any", null, { hidden: true }),
  read("/mcp", "any", { hidden: true }),
  write("DELETE", "/mcp", "any", null, { hidden: true }),
];
