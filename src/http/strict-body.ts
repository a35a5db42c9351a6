// Wherever a body schema closes an object (additionalProperties: false), the body must not carry
// unknown fields there, at any depth. Elysia would silently drop them, hiding client typos such as
// `ttl` for `ttl_seconds` or a misspelt recall filter; the request rules answer 422 naming each
// one. Runs after the input walk has bounded the body's depth, and follows the schema, so its
// recursion is bounded too.
import type { FieldProblem } from "../lib/errors";
import type { Schema } from "./route-schemas";

/**
 * Unknown fields of `value` against `schema`, with JSON-pointer paths; other mismatches are the
 * validator's job.
 */
export function unknownFields(schema: Schema, value: unknown, path = ""): FieldProblem[] {
  if (schema.type === "array" && schema.items && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownFields(schema.items, item, `${path}/${i}`));
  }
  if (
    schema.type !== "object" ||
    !schema.properties ||
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value)
  )
    return [];
  const properties: Record<string, Schema> = schema.properties;
  return Object.entries(value).flatMap(([key, child]) => {
    if (Object.hasOwn(properties, key))
      return unknownFields(properties[key]!, child, `${path}/${key}`);
    return schema.additionalProperties === false
      ? [{ path: `${path}/${key}`, message: "is not a known field" }]
      : [];
  });
}
