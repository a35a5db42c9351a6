// Which setting turns on a route that is off: a gated-off route stays unmounted (absent from
// OpenAPI, a 404), but its 404 names the variable, so "No such route" is not the end of the trail.
import type { AnyElysia } from "elysia";
import { routeMatcher } from "./route-match";

/** The 404 detail for a request that only a gated-off route would serve, else undefined. */
export type GatedOffDetail = (method: string, path: string) => string | undefined;

/** Gated-off routes, built only to read their paths, with the setting that turns each on. */
export type OffRoutes = Array<{ routes: AnyElysia; enabledBy: string }>;

export function gatedOffDetail(off: OffRoutes): GatedOffDetail {
  const matchers = off.map(({ routes, enabledBy }) => ({ match: routeMatcher(routes), enabledBy }));
  return (method, path) => {
    const hit = matchers.find((group) => group.match(method, path));
    if (!hit) return undefined;
    return `${method} ${path} is off on this server: it needs ${hit.enabledBy} (docs/configuration.md)`;
  };
}
