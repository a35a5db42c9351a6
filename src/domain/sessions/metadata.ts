// The metadata rule shared by sessions, conversations and turns: a plain JSON object within
// MEMORY_METADATA_MAX_BYTES (the same bound memories use).
import { validationFailed } from "../errors";

export function checkMetadata(value: unknown, maxBytes: number, path = "/metadata"): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw validationFailed([{ path, message: "must be a JSON object" }]);
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  if (bytes > maxBytes) throw validationFailed([{ path, message: `must be at most ${maxBytes} bytes as JSON (got ${bytes})` }]);
  return value as Record<string, unknown>;
}
