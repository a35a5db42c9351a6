// Idempotency-Key on POST routes (docs/idempotency.md).
import { Type as T } from "@sinclair/typebox";

export const idempotencySection = {
  IDEMPOTENCY_KEY_TTL_SECONDS: T.Integer({
    default: 86400,
    minimum: 60,
    maximum: 30 * 86400,
    description:
      "How long a POST's Idempotency-Key and its stored response are kept (24 h); after it the key may be reused for a new request",
  }),
  IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: T.Integer({
    default: 120,
    minimum: 1,
    maximum: 86400,
    description:
      "A request still holding its Idempotency-Key this long is presumed dead (process killed): a retry with the same key and body then executes afresh",
  }),
};
