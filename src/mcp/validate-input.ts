// Tool arguments pass the same checks as a REST body: the request rules (storable strings, depth,
// free-form size, no unknown fields), then the route's TypeBox schema with its defaults applied.
// Each failure is the same 422 validation problem naming the field.
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Config } from "../config/schema";
import { validationFailed, type FieldProblem } from "../lib/errors";
import { freeFormProblems } from "../lib/validation/free-form";
import { inspectInput } from "../lib/validation/input-walk";
import { unknownFields } from "../http/strict-body";
import { messageFor } from "../http/validation-problems";

type Limits = Pick<
  Config,
  "SVC_JSON_MAX_DEPTH" | "SVC_JSON_FREEFORM_MAX_BYTES" | "MEMORY_METADATA_MAX_BYTES"
>;

export function validateToolInput(schema: TSchema, args: unknown, limits: Limits): unknown {
  const input = args ?? {};
  const walked = inspectInput(input, "", limits.SVC_JSON_MAX_DEPTH);
  if (walked.length > 0) throw validationFailed(walked);
  const freeFormMax = Math.max(
    limits.SVC_JSON_FREEFORM_MAX_BYTES,
    limits.MEMORY_METADATA_MAX_BYTES,
  );
  const shape = [...freeFormProblems(schema, input, freeFormMax), ...unknownFields(schema, input)];
  if (shape.length > 0) throw validationFailed(shape);
  const value = Value.Default(schema, Value.Clone(input));
  // Decode runs Elysia's transforms (an integer given as "5" becomes 5), as the REST validator
  // does.
  if (Value.Check(schema, value)) return Value.Decode(schema, value);
  const byPath = new Map<string, string>();
  for (const issue of Value.Errors(schema, value)) {
    const message = messageFor(issue as never);
    const path = issue.path || "/";
    if (!byPath.has(path) || message === "is required") byPath.set(path, message);
  }
  const problems: FieldProblem[] = [...byPath].map(([path, message]) => ({ path, message }));
  throw validationFailed(problems);
}
