// Layer 7, authorization.
// Authorization, once for every route, right after routing (the scope depends on the matched route
// template) and before any validation, so a key without the scope learns nothing about the body
// rules. A tenant key lacking the route's scope gets 403 insufficient-scope naming the scope.
import { Elysia } from "elysia";
import { requireScope } from "../../lib/scopes";
import { requiredAccess } from "../route-scopes";
import { contextOf } from "../request-context";

export function authorizeLayer() {
  return new Elysia({ name: "svc.authorize" }).onTransform(
    { as: "global" },
    ({ request, route }) => {
      const identity = contextOf(request)?.identity;
      if (identity?.role !== "tenant") return;
      const access = requiredAccess(request.method, route);
      if (access === "any" || access === "superadmin") return;
      requireScope(identity.scopes, access, "This route");
    },
  );
}
