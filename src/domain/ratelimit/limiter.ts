// The rate-limit port: named token buckets, one per API key (capacity RATE_LIMIT_BURST, refill
// RATE_LIMIT_REQUESTS / RATE_LIMIT_WINDOW tokens per second) and one per tenant (tenant-policy.ts).
export type BucketPolicy = {
  capacity: number;
  refillPerSecond: number;
  limit: number;
  windowSeconds: number;
};

export type Bucket = { key: string; policy: BucketPolicy };

export type TakeResult = {
  /** The request was allowed (by every bucket of the take). */
  allowed: boolean;
  /** This bucket held no token, so it refused the request. */
  blocking: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Unix epoch seconds when the bucket is full again. */
  resetAt: number;
  /** Seconds until this bucket has one token (0 unless it is blocking). */
  retryAfter: number;
  /** Milliseconds until this bucket holds one whole token (0 when it holds one now). */
  msUntilToken: number;
};

export interface RateLimiter {
  readonly backend: "valkey" | "memory";
  /**
   * One token from every bucket, or from none: allowed only when each holds a token, so a request
   * one bucket refuses costs the others nothing. Results are in the order of `buckets`.
   */
  take(buckets: readonly Bucket[]): Promise<TakeResult[]>;
  /** Reads the bucket without spending a token. */
  peek(bucketKey: string, policy: BucketPolicy): Promise<TakeResult>;
}

/**
 * The bucket arithmetic, shared by the in-memory limiter and mirrored by
 * src/valkey/token-bucket.lua.
 */
export function refill(
  tokens: number,
  lastMs: number,
  nowMs: number,
  policy: BucketPolicy,
): number {
  const elapsed = Math.max(0, nowMs - lastMs) / 1000;
  return Math.min(policy.capacity, tokens + elapsed * policy.refillPerSecond);
}

export function outcome(
  tokensAfter: number,
  allowed: boolean,
  nowMs: number,
  policy: BucketPolicy,
): TakeResult {
  const missing = policy.capacity - tokensAfter;
  const blocking = !allowed && tokensAfter < 1;
  return {
    allowed,
    blocking,
    remaining: Math.max(0, Math.floor(tokensAfter)),
    resetAt: Math.ceil((nowMs + (missing / policy.refillPerSecond) * 1000) / 1000),
    retryAfter: blocking ? Math.max(1, Math.ceil((1 - tokensAfter) / policy.refillPerSecond)) : 0,
    msUntilToken: Math.max(0, Math.ceil(((1 - tokensAfter) / policy.refillPerSecond) * 1000)),
  };
}
