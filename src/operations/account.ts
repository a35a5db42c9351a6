// Account operations: API keys, limits, budgets (the tenant's own and, for the superadmin, any
// tenant's), audit log, usage, forget certificates.
import { type Operation, read, write } from "./operation";

const superadmin = { gate: "superadmin" } as const;
const forgetProof = { gate: "forgetProof" } as const;

export const ACCOUNT_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/api-keys", "admin", "api_key.create"),
  read("/v1/api-keys", "admin"),
  write("DELETE", "/v1/api-keys/:key_id", "admin", "api_key.revoke"),
  read("/v1/limits", "any"),
  read("/v1/tenants/me/budgets", "admin"),
  write("PUT", "/v1/tenants/me/budgets", "admin", "budget.update"),
  read("/v1/tenants/:org_id/budgets", "superadmin", superadmin),
  write("PUT", "/v1/tenants/:org_id/budgets", "superadmin", "budget.update", superadmin),
  read("/v1/audit", "audit:read", { mcp: "audit_query" }),
  read("/v1/usage", "audit:read"),
  read("/v1/forget/keys", "audit:read", forgetProof),
  read("/v1/forget/:cert_id", "audit:read", forgetProof),
];
