// JSON numbers stay numbers: Elysia's t.Integer (and t.Numeric) accepts a numeric string too, which
// is right for query strings and paths but would let a body say `"top_k": "3"` while `"importance":
// "0.9"` (a t.Number) is refused. Wherever a body schema admits a number through such a string
// alternative, a string value is a 422 naming the field, at any depth, on every route. Follows the
// schema like unknownFields, so its recursion is bounded by it.
import type { FieldProblem } from "../lib/errors";
import type { Schema } from "./route-schemas";

const COERCED_FORMATS = new Set(["integer", "numeric"]);

/**
 * A union that reads a number out of a string (t.Integer, t.Numeric): its number alternative's
 * type.
 */
function coercedNumberType(schema: Schema): string | null {
  const members: Schema[] | undefined = schema.anyOf;
  if (!members?.some((m) => m.type === "string" && COERCED_FORMATS.has(m.format))) return null;
  return members.find((m) => m.type === "integer" || m.type === "number")?.type ?? "number";
}

export function stringsForNumbers(schema: Schema, value: unknown, path = ""): FieldProblem[] {
  const numberType = coercedNumberType(schema);
  if (numberType !== null)
    return typeof value === "string"
      ? [
          {
            path,
            message: `must be a JSON ${numberType === "integer" ? "integer" : "number"}, not a string`,
          },
        ]
      : [];
  if (Array.isArray(schema.anyOf))
    return schema.anyOf
      .flatMap((member: Schema) => stringsForNumbers(member, value, path))
      .slice(0, 1);
  if (schema.type === "array" && schema.items && Array.isArray(value)) {
    return value.flatMap((item, i) => stringsForNumbers(schema.items, item, `${path}/${i}`));
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
  return Object.entries(value).flatMap(([key, child]) =>
    Object.hasOwn(properties, key)
      ? stringsForNumbers(properties[key]!, child, `${path}/${key}`)
      : [],
  );
}
