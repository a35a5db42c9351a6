// Account operations: API keys, limits, the tenant's own budgets, audit log, usage. Any tenant's
// budgets are in superadmin.ts, forget certificates in forget-proof.ts.
import { type Operation, read, write } from "./operation";
export const ACCOUNT_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/api-keys", "admin", "api_key.create"),
  read("/v1/api-keys", "admin"),
  write("DELETE", "/v1/api-keys/:key_id", "admin", "api_key.revoke"),
  read("/v1/limits", "any"),
  read("/v1/tenants/me/budgets", "admin"),
  write("PUT", "/v1/tenants/me/budgets", "admin", "budget.update"),
  read("/v1/audit", "audit:read", { mcp: "audit_query" }),
  read("/v1/usage", "audit:read"),
];
