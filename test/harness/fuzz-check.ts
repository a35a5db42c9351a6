// ajv over the app's OpenAPI schemas: request bodies (is this input invalid?) and 2xx responses
// (does it match?).
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Schema } from "./fuzz-schema";

export function schemaChecker(spec: Schema) {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  // Elysia documents numeric query and body coercion as strings with these formats.
  ajv.addFormat("integer", /^-?\d+$/);
  ajv.addFormat("numeric", /^-?\d+(\.\d+)?$/);
  ajv.addSchema({ components: spec.components ?? {} }, "openapi");
  const cache = new Map<string, ValidateFunction>();

  function compile(schema: Schema): ValidateFunction {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
    let validate = cache.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text));
      cache.set(text, validate);
    }
    return validate;
  }

  return {
    /** null when valid, else ajv's first error as text. */
    check(schema: Schema, value: unknown): string | null {
      const validate = compile(schema);
      return validate(value) ? null : ajv.errorsText(validate.errors, { separator: "; " });
    },
  };
}
