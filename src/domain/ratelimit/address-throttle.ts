// Throttling before authentication: a token bucket per client address that only failed
// authentications spend (a missing, malformed, unknown or revoked key; a wrong superadmin key).
// It is read before a key costs a database lookup or a comparison, so a flood of made-up keys
// from one address gets 429s instead of lookups. A key the process has verified recently skips
// it, so clients with valid keys behind the same address keep working.
//
// An address found with an empty bucket is remembered in-process until its next token is due, by
// the limiter's memory of empty buckets (spent-memory.ts): its refusals cost no Valkey round trip.
import type { Config } from "../../config/schema";
import { rateLimited } from "../../lib/errors";
import type { BucketPolicy, RateLimiter } from "./limiter";

export type AddressThrottle = {
  /** Throws the 429 when the address has no failure left to spend. */
  check(address: string): Promise<void>;
  /** Spends one of the address's failures. */
  charge(address: string): Promise<void>;
};

type AddressLimits = Pick<
  Config,
  "RATE_LIMIT_UNAUTHENTICATED_REQUESTS" | "RATE_LIMIT_UNAUTHENTICATED_BURST" | "RATE_LIMIT_WINDOW"
>;

export function addressBucketPolicyOf(config: AddressLimits): BucketPolicy {
  return {
    capacity: config.RATE_LIMIT_UNAUTHENTICATED_BURST,
    refillPerSecond: config.RATE_LIMIT_UNAUTHENTICATED_REQUESTS / config.RATE_LIMIT_WINDOW,
    limit: config.RATE_LIMIT_UNAUTHENTICATED_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW,
  };
}

export const addressBucketKey = (address: string) => `addr:${address}`;

export function createAddressThrottle(limiter: RateLimiter, policy: BucketPolicy): AddressThrottle {
  const refuse = (msLeft: number) => {
    throw rateLimited(Math.max(1, Math.ceil(msLeft / 1000)), {}, "client_address");
  };

  return {
    async check(address) {
      const bucket = await limiter.peek(addressBucketKey(address), policy);
      if (bucket.remaining < 1) refuse(bucket.msUntilToken);
    },
    async charge(address) {
      await limiter.take([{ key: addressBucketKey(address), policy }]);
    },
  };
}
