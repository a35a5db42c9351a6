// The schemas each mounted route declares (body, query, path), looked up by method and route
// template so the request rules apply to every route, including ones added later. Filled once
// routes are mounted.
import type { AnyElysia } from "elysia";

export type Schema = Record<string, any>;
export type RouteSchema = { body?: Schema; query?: Schema; params?: Schema };
export type RouteSchemas = Map<string, RouteSchema>;

export const routeKey = (method: string, route: string) => `${method.toUpperCase()} ${route}`;

export function collectRouteSchemas(app: AnyElysia, into: RouteSchemas): void {
  for (const route of app.routes as Array<{ method: string; path: string; hooks?: RouteSchema }>) {
    const { body, query, params } = route.hooks ?? {};
    into.set(routeKey(route.method, route.path), { body, query, params });
  }
}
