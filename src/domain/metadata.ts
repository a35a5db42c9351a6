// The one metadata contract, shared by memories, sessions, conversations and turns: a plain JSON
// object, at most MEMORY_METADATA_MAX_BYTES as UTF-8 JSON, nested at most SVC_JSON_MAX_DEPTH
// levels, and storable (no NUL, no unpaired surrogates in field names or strings). Requests meet it
// in the pipeline already; checking here too covers callers that do not come through HTTP (loaders,
// imports).
import type { Config } from "../config/schema";
import { validationFailed } from "../lib/errors";
import { inspectInput } from "../lib/validation/input-walk";

export type MetadataLimits = Pick<Config, "MEMORY_METADATA_MAX_BYTES" | "SVC_JSON_MAX_DEPTH">;

const utf8 = new TextEncoder();

/** Why `value` is not acceptable metadata, or null. */
export function metadataProblem(limits: MetadataLimits, value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "must be a JSON object";
  const [unstorable] = inspectInput(value, "", limits.SVC_JSON_MAX_DEPTH);
  if (unstorable)
    return unstorable.path === "/"
      ? unstorable.message
      : `${unstorable.path}: ${unstorable.message}`;
  const bytes = utf8.encode(JSON.stringify(value)).length;
  if (bytes > limits.MEMORY_METADATA_MAX_BYTES)
    return `must be at most ${limits.MEMORY_METADATA_MAX_BYTES} bytes as JSON (got ${bytes})`;
  return null;
}

/** The metadata to store ({} when absent), or a 422 naming `path`. */
export function checkMetadata(
  limits: MetadataLimits,
  value: unknown,
  path = "/metadata",
): Record<string, unknown> {
  if (value === undefined) return {};
  const problem = metadataProblem(limits, value);
  if (problem) throw validationFailed([{ path, message: problem }]);
  return value as Record<string, unknown>;
}
