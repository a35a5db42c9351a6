// Which routes a server mounts: each route factory's operations in the catalog (src/operations/)
// carry its gate. A route the catalog does not name, or a factory whose routes disagree on the
// gate, stops the app from starting: every mounted route is declared once.
import type { AnyElysia } from "elysia";
import type { Deps } from "../operations/deps";
import { ENABLED_BY, type GateName, operationOf } from "../operations";
import type { OffRoutes } from "./gated-off";
import type { RouteFactory } from "./routes";

export type BuiltRoutes = {
  mounted: AnyElysia[];
  off: OffRoutes;
};

/** The one gate of a built route factory, from the catalog entries of its routes. */
export function gateOfRoutes(routes: AnyElysia): GateName {
  const gates = new Set(
    (routes.routes as Array<{ method: string; path: string }>).map(({ method, path }) => {
      const operation = operationOf(method, path);
      if (!operation) throw new Error(`${method} ${path} has no entry in src/operations/`);
      return operation.gate;
    }),
  );
  const [gate, ...others] = gates;
  if (!gate || others.length > 0)
    throw new Error(`a route factory must serve one gate, not ${[...gates].join(", ") || "none"}`);
  return gate;
}

export function buildRoutes(deps: Deps, table: readonly RouteFactory[]): BuiltRoutes {
  const built: BuiltRoutes = { mounted: [], off: [] };
  for (const factory of table) {
    const routes = factory(deps);
    const gate = gateOfRoutes(routes);
    if (gate === "always" || deps.gates[gate]) built.mounted.push(routes);
    else built.off.push({ routes, enabledBy: ENABLED_BY[gate] });
  }
  return built;
}
