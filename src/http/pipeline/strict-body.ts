// Part of validation: wherever a body schema closes an object (additionalProperties: false), the body
// must not carry unknown fields there, at any depth. Elysia would silently drop them, hiding client
// typos such as `ttl` for `ttl_seconds` or a misspelt recall filter; we answer 422 naming each one.
// The table is filled once routes are mounted.
import { Elysia, type AnyElysia } from "elysia";
import { validationFailed, type FieldProblem } from "../../domain/errors";

type Schema = { type?: string; additionalProperties?: unknown; properties?: Record<string, Schema>; items?: Schema };

export type BodySchemas = Map<string, Schema>;

const keyOf = (method: string, route: string) => `${method.toUpperCase()} ${route}`;

export function collectBodySchemas(app: AnyElysia, into: BodySchemas): void {
  for (const route of app.routes as Array<{ method: string; path: string; hooks?: { body?: Schema } }>) {
    if (route.hooks?.body?.type === "object") into.set(keyOf(route.method, route.path), route.hooks.body);
  }
}

/** Unknown fields of `value` against `schema`, with JSON-pointer paths; other mismatches are the validator's job. */
export function unknownFields(schema: Schema, value: unknown, path = ""): FieldProblem[] {
  if (schema.type === "array" && schema.items && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownFields(schema.items!, item, `${path}/${i}`));
  }
  if (schema.type !== "object" || !schema.properties || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const properties = schema.properties;
  return Object.entries(value).flatMap(([key, child]) => {
    const childSchema = properties[key];
    if (childSchema) return unknownFields(childSchema, child, `${path}/${key}`);
    return schema.additionalProperties === false ? [{ path: `${path}/${key}`, message: "is not a known field" }] : [];
  });
}

export function strictBodyLayer(schemas: BodySchemas) {
  return new Elysia({ name: "svc.strict-body" }).onTransform({ as: "global" }, ({ request, route, body }) => {
    const schema = schemas.get(keyOf(request.method, route));
    if (!schema) return;
    const unknown = unknownFields(schema, body);
    if (unknown.length > 0) throw validationFailed(unknown);
  });
}
