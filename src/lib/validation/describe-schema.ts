// Plain-words description of what a JSON Schema (TypeBox) node allows: "an integer from 1 to 100",
// "one of: AUTO, VECTOR", "a string of 1 to 256 characters". Validation problems and configuration
// errors are written from it, so every schema, including ones added later, gets readable messages
// for free.
type Schema = Record<string, any>;

const BOUNDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
] as const;

/**
 * Union branches as leaves, each carrying the bounds its enclosing union declared (Elysia puts them
 * there).
 */
function leaves(s: Schema, inherited: Schema = {}): Schema[] {
  const bounds: Schema = { ...inherited };
  for (const k of BOUNDS) if (s[k] !== undefined) bounds[k] = s[k];
  const union = s.anyOf ?? s.oneOf;
  if (Array.isArray(union)) return union.flatMap((branch: Schema) => leaves(branch, bounds));
  return [{ ...bounds, ...s }];
}

function range(s: Schema, noun: string): string {
  if (s.minimum !== undefined && s.maximum !== undefined)
    return `${noun} from ${s.minimum} to ${s.maximum}`;
  const parts: string[] = [];
  if (s.exclusiveMinimum !== undefined) parts.push(`greater than ${s.exclusiveMinimum}`);
  else if (s.minimum !== undefined) parts.push(`at least ${s.minimum}`);
  if (s.exclusiveMaximum !== undefined) parts.push(`less than ${s.exclusiveMaximum}`);
  else if (s.maximum !== undefined) parts.push(`at most ${s.maximum}`);
  return parts.length ? `${noun} ${parts.join(" and ")}` : noun;
}

const count = (n: number, unit: string) => `${n} ${n === 1 ? unit.replace(/s$/, "") : unit}`;

function lengths(s: Schema, unit: string): string {
  const { minLength: min, maxLength: max } = s;
  if (min !== undefined && min > 0 && max !== undefined)
    return min === max ? ` of exactly ${count(max, unit)}` : ` of ${min} to ${max} ${unit}`;
  if (min !== undefined && min > 0) return ` of at least ${count(min, unit)}`;
  if (max !== undefined) return ` of at most ${count(max, unit)}`;
  return "";
}

const FORMATS: Record<string, string> = {
  "date-time": "an ISO 8601 date-time (e.g. 2025-01-31T12:00:00Z)",
  date: "an ISO 8601 date (YYYY-MM-DD)",
  uri: "an absolute URL",
  email: "an email address",
  uuid: "a UUID",
};

function describeLeaf(s: Schema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return `one of: ${s.enum.join(", ")}`;
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "string":
      if (s.format === "integer") return range(s, "an integer");
      if (s.format === "numeric") return range(s, "a number");
      if (s.format === "boolean") return "true or false";
      if (typeof s.format === "string" && Object.hasOwn(FORMATS, s.format))
        return FORMATS[s.format]!;
      if (typeof s.pattern === "string")
        return `a string${lengths(s, "characters")} matching ${s.pattern}`;
      return `a string${lengths(s, "characters")}`;
    case "integer":
      return range(s, "an integer");
    case "number":
      return range(s, "a number");
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "array": {
      const count = lengths({ minLength: s.minItems, maxLength: s.maxItems }, "items");
      const items =
        s.items && s.items.type !== "object" && s.items.type !== "array"
          ? `, each ${describeSchema(s.items)}`
          : "";
      return `a list${count}${items}`;
    }
    case "object": {
      const fields = lengths({ minLength: s.minProperties, maxLength: s.maxProperties }, "fields");
      return `a JSON object${fields.replace(" of ", " with ")}`;
    }
    case undefined:
      return "any JSON value";
    default:
      return `a ${type}`;
  }
}

/** What the schema allows, in words; alternatives joined with "or", duplicates dropped. */
export function describeSchema(schema: Schema): string {
  const all = leaves(schema);
  // A union of literals and enums reads as one list.
  if (all.length > 1 && all.every((l) => l.const !== undefined || Array.isArray(l.enum))) {
    return `one of: ${all.flatMap((l) => (l.const !== undefined ? [l.const] : l.enum)).join(", ")}`;
  }
  const texts = [...new Set(all.map(describeLeaf))];
  return texts.length <= 1
    ? (texts[0] ?? "any JSON value")
    : `${texts.slice(0, -1).join(", ")} or ${texts.at(-1)}`;
}
