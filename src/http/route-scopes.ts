// Which scope each route needs, read from the operations catalog (src/operations/): by the
// authorize layer (enforcement) and by the OpenAPI description (`x-required-scope`). A route the
// catalog does not name needs `admin`, so an undeclared route is closed. docs/keys.md shows the
// resulting table.
import type { AnyElysia } from "elysia";
import type { Scope } from "../lib/scopes";
import { operationOf } from "../operations";
import { isPublicPath } from "./pipeline/5-authenticate";

/**
 * `any`: every valid tenant key (its own limits); `superadmin`: the superadmin key, not a tenant
 * scope.
 */
export type RouteAccess = Scope | "any" | "superadmin";

const FALLBACK: RouteAccess = "admin";

/** A public operation asks no key: any key that reaches it may call it. */
export function requiredAccess(method: string, route: string): RouteAccess {
  const access = operationOf(method, route)?.access ?? FALLBACK;
  return access === "public" ? "any" : access;
}

/**
 * Puts each authenticated route's scope into its OpenAPI operation (`x-required-scope`, and the
 * description).
 */
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
