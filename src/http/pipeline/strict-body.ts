// Part of validation: a body whose schema closes its properties (additionalProperties: false) must not
// carry unknown top-level fields. Elysia would silently drop them, hiding client typos such as
// `ttl` for `ttl_seconds`; we answer 422 naming them instead. The table is filled once routes are mounted.
import { Elysia, type AnyElysia } from "elysia";
import { validationFailed } from "../../domain/errors";

type ClosedSchema = { type?: string; additionalProperties?: unknown; properties?: Record<string, unknown> };

export type AllowedFields = Map<string, ReadonlySet<string>>;

const keyOf = (method: string, route: string) => `${method.toUpperCase()} ${route}`;

export function collectAllowedFields(app: AnyElysia, into: AllowedFields): void {
  for (const route of app.routes as Array<{ method: string; path: string; hooks?: { body?: ClosedSchema } }>) {
    const body = route.hooks?.body;
    if (body?.type === "object" && body.additionalProperties === false && body.properties) {
      into.set(keyOf(route.method, route.path), new Set(Object.keys(body.properties)));
    }
  }
}

export function strictBodyLayer(allowed: AllowedFields) {
  return new Elysia({ name: "svc.strict-body" }).onTransform({ as: "global" }, ({ request, route, body }) => {
    const fields = allowed.get(keyOf(request.method, route));
    if (!fields || typeof body !== "object" || body === null || Array.isArray(body)) return;
    const unknown = Object.keys(body).filter((k) => !fields.has(k));
    if (unknown.length > 0) throw validationFailed(unknown.map((k) => ({ path: `/${k}`, message: "is not a known field" })));
  });
}
