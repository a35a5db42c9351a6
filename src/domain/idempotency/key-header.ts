// The Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header): a client-chosen
// string, 1–255 printable ASCII characters, sent bare (Stripe style) or as a structured-field
// string ("…").
import { badIdempotencyKey } from "../../lib/errors";

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The key the header carries; a 400 problem naming the header when it is empty, too long or not
 * printable ASCII.
 */
export function parseIdempotencyKey(raw: string): string {
  let key = raw;
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"'))
    key = key.slice(1, -1).replace(/\\(["\\])/g, "$1");
  if (key.length === 0) throw badIdempotencyKey("The Idempotency-Key header must not be empty");
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    throw badIdempotencyKey(
      `The Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
    );
  if (!PRINTABLE_ASCII.test(key))
    throw badIdempotencyKey("The Idempotency-Key header must be printable ASCII characters only");
  return key;
}
