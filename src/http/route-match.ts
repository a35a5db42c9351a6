// The route template a request path would reach, for responses that end before routing (401, 413,
// 429): the access log, metrics and spans name that route rather than "unmatched". Static routes
// win over parameterised ones, as in the router.
import type { AnyElysia } from "elysia";

export type RouteMatcher = (method: string, path: string) => string | undefined;

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

function pattern(template: string): RegExp {
  const body = template
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : escape(part)))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

export function routeMatcher(app: AnyElysia): RouteMatcher {
  const routes = (app.routes as Array<{ method: string; path: string }>)
    .map((r) => ({
      method: r.method.toUpperCase(),
      path: r.path,
      re: pattern(r.path),
      dynamic: (r.path.match(/[:*]/g) ?? []).length,
    }))
    .sort((a, b) => a.dynamic - b.dynamic);
  return (method, path) => {
    const m = method.toUpperCase();
    return routes.find(
      (r) =>
        (r.method === m || r.method === "ALL" || (m === "HEAD" && r.method === "GET")) &&
        r.re.test(path),
    )?.path;
  };
}
