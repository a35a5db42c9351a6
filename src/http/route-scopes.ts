// Which scope each route needs: the one table, read by the authorize layer (enforcement) and by the
// OpenAPI description (`x-required-scope`). Rules match the route template, first match wins; a route
// no rule names needs `admin`, so a new route is closed until it is given a scope here. docs/keys.md
// shows the resulting table.
import type { AnyElysia } from "elysia";
import type { Scope } from "../domain/keys/scopes";
import { isPublicPath } from "./pipeline/5-authenticate";

/** `any`: every valid tenant key (its own limits); `superadmin`: the superadmin key, not a tenant scope. */
export type RouteAccess = Scope | "any" | "superadmin";

type Rule = {
  path: RegExp;
  methods?: readonly string[];
  access: RouteAccess | { read: Scope; write: Scope };
};

const READS = ["GET", "HEAD"];

const RULES: readonly Rule[] = [
  { path: /^\/v1\/tenants\/:[^/]+\/budgets$/, access: "superadmin" },
  { path: /^\/v1\/tenants\/me\/budgets$/, access: "admin" },
  { path: /^\/v1\/api-keys(\/|$)/, access: "admin" },
  { path: /^\/v1\/webhooks(\/|$)/, access: "admin" },
  { path: /^\/v1\/limits$/, access: "any" },
  // MCP: each tool call is checked against its REST route's scope (src/mcp/tool-scopes.ts).
  { path: /^\/mcp$/, access: "any" },
  { path: /^\/v1\/(audit|usage)$/, access: "audit:read" },
  { path: /^\/v1\/export$/, access: "export" },
  // Erasure destroys content beyond recovery: admin only (docs/erasure.md).
  { path: /^\/v1\/erasures(\/|$)/, access: "admin" },
  { path: /^\/v1\/forget(\/|$)/, access: "audit:read" },
  { path: /^\/v1\/memories\/recall(\/stream)?$/, methods: ["POST"], access: "memories:read" },
  {
    path: /^\/v1\/(distill|ingest|datasets|refine)(\/|$)/,
    access: { read: "memories:read", write: "forge:write" },
  },
  { path: /^\/v1\/graph\/relations$/, access: { read: "memories:read", write: "forge:write" } },
  {
    path: /^\/v1\/(memories|agents|conversations|sessions|feedback|graph)(\/|$)/,
    access: { read: "memories:read", write: "memories:write" },
  },
];

const FALLBACK: RouteAccess = "admin";

export function requiredAccess(method: string, route: string): RouteAccess {
  const upper = method.toUpperCase();
  for (const rule of RULES) {
    if (!rule.path.test(route) || (rule.methods && !rule.methods.includes(upper))) continue;
    if (typeof rule.access === "string") return rule.access;
    return READS.includes(upper) ? rule.access.read : rule.access.write;
  }
  return FALLBACK;
}

/** Puts each authenticated route's scope into its OpenAPI operation (`x-required-scope`, and the description). */
export function declareRouteScopes(app: AnyElysia): void {
  for (const route of app.routes as Array<{
    method: string;
    path: string;
    hooks?: { detail?: Record<string, unknown> };
  }>) {
    if (!route.hooks || isPublicPath(route.path) || route.hooks.detail?.hide === true) continue;
    const detail = route.hooks.detail;
    const access = requiredAccess(route.method, route.path);
    const note =
      access === "any"
        ? "Any valid tenant key."
        : access === "superadmin"
          ? "Superadmin key only."
          : `Requires key scope \`${access}\`.`;
    const description =
      typeof detail?.description === "string" ? `${detail.description}\n\n${note}` : note;
    route.hooks.detail = { ...detail, description, "x-required-scope": access };
  }
}
