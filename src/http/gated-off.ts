// Which setting turns on a route that is off: a gated-off route stays unmounted (absent from OpenAPI, a
// 404), but its 404 names the variable, so "No such route" is not the end of the trail.
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../app/deps";
import { routeMatcher } from "./pipeline/route-match";
import { ROUTE_GROUPS } from "./routes";

/** What to set for each gated group (by name); the gates themselves are in src/config/gates.ts. */
const ENABLED_BY: Record<string, string> = {
  "forget-proof": "FORGET_PROOF_ENABLED=true",
  superadmin: "SUPERADMIN_ENABLED=true and SUPERADMIN_API_KEY",
  datasets: "INGEST_ENABLED=true",
  ingest: "INGEST_ENABLED=true",
  "ingest-search": "INGEST_ENABLED=true and WEBSEARCH_API_KEY",
  "ingest-upload": "INGEST_ENABLED=true and STORAGE_BACKEND=s3",
  refine: "REFINE_ENABLED=true",
  distill: "DISTILL_ENABLED=true",
};

/** The 404 detail for a request that only a gated-off route would serve, else undefined. */
export type GatedOffDetail = (method: string, path: string) => string | undefined;

export function gatedOffDetail(deps: Deps): GatedOffDetail {
  // Built to read their paths and methods only: never mounted.
  const offGroups = ROUTE_GROUPS.filter(
    (group) => !group.gate(deps.gates) && ENABLED_BY[group.name],
  );
  const off = offGroups.map((group) => {
    let probe: AnyElysia = new Elysia();
    for (const route of group.routes) probe = probe.use(route(deps));
    return { match: routeMatcher(probe), enabledBy: ENABLED_BY[group.name]! };
  });
  return (method, path) => {
    const hit = off.find((group) => group.match(method, path));
    if (!hit) return undefined;
    return `${method} ${path} is off on this server: it needs ${hit.enabledBy} (docs/configuration.md)`;
  };
}
