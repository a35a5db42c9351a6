// The request fingerprint an Idempotency-Key is bound to: method, path and query, the API key, and
// the body in canonical JSON (uploaded files by the SHA-256 of their bytes), so a reformatted but
// equal JSON body is the same request and anything else is a different one.
import { createHash } from "node:crypto";
import { canonicalJson } from "../audit/canonical";

export type FingerprintInput = {
  method: string;
  pathAndQuery: string;
  keyId: string;
  body: unknown;
};

/**
 * Replaces uploaded files by their digest; the body was already depth-checked by the input rules.
 */
async function digestible(value: unknown): Promise<unknown> {
  if (value instanceof Blob) {
    const digest = createHash("sha256")
      .update(new Uint8Array(await value.arrayBuffer()))
      .digest("hex");
    return {
      $file: {
        sha256: digest,
        size: value.size,
        type: value.type,
        name: value instanceof File ? value.name : null,
      },
    };
  }
  if (Array.isArray(value)) return Promise.all(value.map(digestible));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await digestible(v);
    return out;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

export async function requestFingerprint(input: FingerprintInput): Promise<string> {
  const body = input.body === undefined ? null : await digestible(input.body);
  return createHash("sha256")
    .update(
      canonicalJson({
        body,
        key_id: input.keyId,
        method: input.method.toUpperCase(),
        path: input.pathAndQuery,
      }),
    )
    .digest("hex");
}
