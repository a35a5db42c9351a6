// Throttling before authentication: a token bucket per client address that only failed
// authentications spend (a missing, malformed, unknown or revoked key; a wrong superadmin key).
// It is read before a key costs a database lookup or a comparison, so a flood of made-up keys
// from one address gets 429s instead of lookups. A key the process has verified recently skips
// it, so clients with valid keys behind the same address keep working.
//
// An address found with an empty bucket is remembered in-process until its next token is due:
// a bucket only refills with time, so until then every check would be refused anyway, and the
// refusal costs no Valkey round trip (a flooding address costs one per token, not one per request).
import type { Config } from "../../config/schema";
import { rateLimited } from "../../lib/errors";
import type { BucketPolicy, RateLimiter, TakeResult } from "./limiter";

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

/** Addresses remembered as spent at once; past it the oldest is forgotten (and asked again). */
const MAX_SPENT_ADDRESSES = 100_000;

export function createAddressThrottle(
  limiter: RateLimiter,
  policy: BucketPolicy,
  now: () => number = Date.now,
): AddressThrottle {
  /** Address → when (this process's clock, ms) its bucket next holds a token. */
  const spentUntil = new Map<string, number>();

  const remember = (address: string, bucket: TakeResult) => {
    if (bucket.remaining >= 1) return;
    spentUntil.delete(address); // re-inserted last: the map stays in order of remembering
    if (spentUntil.size >= MAX_SPENT_ADDRESSES) spentUntil.delete(spentUntil.keys().next().value!);
    spentUntil.set(address, now() + bucket.msUntilToken);
  };

  const refuse = (msLeft: number) => {
    throw rateLimited(Math.max(1, Math.ceil(msLeft / 1000)), {}, "client_address");
  };

  return {
    async check(address) {
      const due = spentUntil.get(address);
      if (due !== undefined) {
        if (due > now()) refuse(due - now());
        spentUntil.delete(address);
      }
      const bucket = await limiter.peek(addressBucketKey(address), policy);
      if (bucket.remaining >= 1) return;
      remember(address, bucket);
      refuse(bucket.msUntilToken);
    },
    async charge(address) {
      const [bucket] = await limiter.take([{ key: addressBucketKey(address), policy }]);
      remember(address, bucket!);
    },
  };
}
