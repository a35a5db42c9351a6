// Free-form JSON values (a schema that does not fix their shape: metadata, filters.metadata,
// params, …) are bounded in size wherever they appear in a body. Found by walking the route's own
// schema, so a route added later is covered without declaring anything. Iterative, like the input
// walk.
import type { FieldProblem } from "../errors";

type Schema = Record<string, any>;

const SHAPING_KEYWORDS = ["type", "anyOf", "oneOf", "allOf", "enum", "const", "not"];

/**
 * True when the schema lets any JSON through at this node (Unknown, Any, a record of unknown
 * values).
 */
export function isFreeForm(schema: Schema): boolean {
  if (!SHAPING_KEYWORDS.some((k) => k in schema)) return true;
  return schema.type === "object" && !schema.properties && schema.additionalProperties !== false;
}

const utf8 = new TextEncoder();
const kindOf = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);

/**
 * Size problems of every free-form value inside `value`; `maxBytes` is the UTF-8 size of its JSON
 * text.
 */
export function freeFormProblems(schema: Schema, value: unknown, maxBytes: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: Array<{ schema: Schema; value: unknown; path: string }> = [
    { schema, value, path: "" },
  ];
  while (stack.length > 0) {
    const { schema: s, value: v, path } = stack.pop()!;
    if (v === undefined) continue;
    if (isFreeForm(s)) {
      const bytes = utf8.encode(JSON.stringify(v) ?? "").length;
      if (bytes > maxBytes)
        problems.push({
          path: path || "/",
          message: `must be at most ${maxBytes} bytes as JSON (got ${bytes})`,
        });
      continue;
    }
    const union: Schema[] | undefined = s.anyOf ?? s.oneOf;
    if (Array.isArray(union)) {
      // Follow the first branch that can hold this kind of value; a free-form branch bounds the
      // whole value.
      const branch =
        union.find((b) => isFreeForm(b)) ??
        union.find((b) => b.type === kindOf(v) || (b.type === "integer" && typeof v === "number"));
      if (branch) stack.push({ schema: branch, value: v, path });
      continue;
    }
    if (
      s.type === "object" &&
      s.properties &&
      v !== null &&
      typeof v === "object" &&
      !Array.isArray(v)
    ) {
      for (const [key, child] of Object.entries(v)) {
        const childSchema = Object.hasOwn(s.properties, key)
          ? s.properties[key]
          : typeof s.additionalProperties === "object"
            ? s.additionalProperties
            : undefined;
        if (childSchema) stack.push({ schema: childSchema, value: child, path: `${path}/${key}` });
      }
    } else if (s.type === "array" && s.items && Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ schema: s.items, value: item, path: `${path}/${i}` }));
    }
  }
  return problems;
}
