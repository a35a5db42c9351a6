// fast-check arbitraries from the JSON Schemas in the app's own /openapi.json: valid values (with
// boundaries, as fast-check biases towards them) and values that break the schema in one known way.
import fc from "fast-check";

export type Schema = Record<string, any>;

export function resolver(spec: Schema): (s: Schema | undefined) => Schema {
  return function resolve(s) {
    if (!s) return {};
    if (typeof s.$ref === "string")
      return resolve(spec.components?.schemas?.[s.$ref.split("/").pop()!]);
    return s;
  };
}

const ISO_DATE = fc.date({
  min: new Date("2000-01-01T00:00:00Z"),
  max: new Date("2100-01-01T00:00:00Z"),
  noInvalidDate: true,
});
const typeOf = (s: Schema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;

/** Values that satisfy `s`. Unbounded strings stay short so requests stay cheap. */
export function validOf(
  s: Schema,
  resolve: (s: Schema) => Schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  s = resolve(s);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  // t.Integer's numeric-string alternative is for query strings; a JSON body must carry the number
  // itself.
  const number = union?.some((b: Schema) => b.type === "integer" || b.type === "number");
  if (
    number &&
    union.some(
      (b: Schema) => b.type === "string" && (b.format === "integer" || b.format === "numeric"),
    )
  ) {
    return validOf(
      union.find((b: Schema) => b.type === "integer" || b.type === "number"),
      resolve,
      depth,
    );
  }
  if (Array.isArray(union))
    return fc.oneof(
      ...union.map((b: Schema) =>
        validOf(
          { ...b, minimum: b.minimum ?? s.minimum, maximum: b.maximum ?? s.maximum },
          resolve,
          depth,
        ),
      ),
    );
  if (Array.isArray(s.type) && s.type.includes("null"))
    return fc.option(validOf({ ...s, type: typeOf(s) }, resolve, depth), { nil: null });
  switch (typeOf(s)) {
    case "string": {
      if (s.format === "integer")
        return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 }).map(String);
      if (s.format === "date-time") return ISO_DATE.map((d) => d.toISOString());
      if (s.format === "date") return ISO_DATE.map((d) => d.toISOString().slice(0, 10));
      if (s.format === "uri") return fc.webUrl();
      if (typeof s.pattern === "string")
        return fc
          .stringMatching(new RegExp(s.pattern))
          .filter((x) => x.length >= (s.minLength ?? 0) && x.length <= (s.maxLength ?? Infinity));
      const minLength = s.minLength ?? 0;
      const maxLength = Math.min(s.maxLength ?? 40, Math.max(minLength, 64));
      const boundary =
        s.maxLength !== undefined && s.maxLength <= 20_000
          ? [fc.constant("x".repeat(s.maxLength))]
          : [];
      return fc.oneof(
        { weight: 9, arbitrary: fc.string({ minLength, maxLength, unit: "grapheme" }) },
        ...boundary.map((arbitrary) => ({ weight: 1, arbitrary })),
      );
    }
    case "integer":
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
    case "number":
      return fc.double({
        min: s.minimum ?? -1e6,
        max: s.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = s.minItems ?? 0;
      return fc.array(validOf(s.items ?? {}, resolve, depth + 1), {
        minLength,
        maxLength: Math.min(s.maxItems ?? 5, Math.max(minLength, 5)),
      });
    }
    case "object": {
      const props = Object.entries<Schema>(s.properties ?? {});
      if (props.length === 0 || depth > 4)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 4,
        });
      const required = new Set<string>(s.required ?? []);
      return fc.record(
        Object.fromEntries(props.map(([k, v]) => [k, validOf(v, resolve, depth + 1)])),
        { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export type Mutation = { value: unknown; how: string };
export const INJECTED = "protected or unknown fields";

/**
 * One likely schema violation applied to a valid object; the caller decides with ajv whether it
 * truly is one.
 */
export function invalidOf(s: Schema, resolve: (s: Schema) => Schema): fc.Arbitrary<Mutation> {
  s = resolve(s);
  const props = Object.entries<Schema>(s.properties ?? {});
  const base = validOf(s, resolve) as fc.Arbitrary<Record<string, unknown>>;
  const garbage = fc
    .constantFrom<unknown>(null, 0, "text", [], true, [1, 2])
    .map((value) => ({ value, how: "not an object" }));
  if (typeOf(s) !== "object" || props.length === 0) return garbage;
  const keys = props.map(([k]) => k);
  const propOf = (key: string) => resolve(props.find(([k]) => k === key)![1]);
  return fc.oneof(
    garbage,
    fc
      .tuple(
        base,
        fc.constantFrom(...keys),
        fc.constantFrom<unknown>(
          { nested: true },
          [1, "2"],
          -1e308,
          "",
          "12345678901234567890",
          null,
          false,
          1.5,
        ),
      )
      .map(([obj, key, wrong]) => ({
        value: { ...obj, [key]: wrong },
        how: `wrong type for ${key}`,
      })),
    fc.tuple(base, fc.constantFrom(...keys)).map(([obj, key]) => {
      const copy = { ...obj };
      delete copy[key];
      return { value: copy, how: `without ${key}` };
    }),
    base.map((obj) => ({
      value: {
        ...obj,
        org_id: "org_other",
        version: 99,
        key_hash: "00",
        valid_to: "2000-01-01T00:00:00Z",
      },
      how: INJECTED,
    })),
    fc.tuple(base, fc.constantFrom(...keys)).map(([obj, key]) => ({
      value: { ...obj, [key]: boundaryBreak(propOf(key)) ?? obj[key] },
      how: `just out of bounds: ${key}`,
    })),
  );
}

/** Past the shared date bound (issue 23, item 9): an extended year, which ajv's formats refuse. */
const EXTENDED_YEAR = { "date-time": "+010000-01-01T00:00:00Z", date: "+010000-01-01" };

function boundaryBreak(prop: Schema): unknown {
  const format = [prop, ...(prop.anyOf ?? [])].find(
    (b: Schema) => b.format === "date-time" || b.format === "date",
  )?.format as keyof typeof EXTENDED_YEAR | undefined;
  if (format) return EXTENDED_YEAR[format];
  const numeric =
    prop.anyOf?.find((b: Schema) => b.type === "integer" || b.type === "number") ?? prop;
  if (prop.type === "string" && prop.maxLength !== undefined && prop.maxLength < 100_000)
    return "y".repeat(prop.maxLength + 1);
  if (prop.type === "string" && (prop.minLength ?? 0) > 0) return "";
  if (
    typeof numeric.maximum === "number" &&
    (numeric.type === "integer" || numeric.type === "number")
  )
    return numeric.maximum + 1;
  if (
    typeof numeric.minimum === "number" &&
    (numeric.type === "integer" || numeric.type === "number")
  )
    return numeric.minimum - 1;
  if (prop.type === "array" && prop.maxItems !== undefined && prop.maxItems <= 2000)
    return Array.from({ length: prop.maxItems + 1 }, () => "z");
  if (prop.type === "array" && (prop.minItems ?? 0) > 0) return [];
  return undefined;
}
