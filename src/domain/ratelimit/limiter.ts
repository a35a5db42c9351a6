// The rate-limit port: named token buckets, one per API key (capacity RATE_LIMIT_BURST, refill
// RATE_LIMIT_REQUESTS / RATE_LIMIT_WINDOW tokens per second) and one per tenant (tenant-policy.ts).
export type BucketPolicy = { capacity: number; refillPerSecond: number; limit: number; windowSeconds: number };

export type TakeResult = {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Unix epoch seconds when the bucket is full again. */
  resetAt: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfter: number;
};

export interface RateLimiter {
  readonly backend: "valkey" | "memory";
  take(bucketKey: string, policy: BucketPolicy): Promise<TakeResult>;
  /** Reads the bucket without spending a token. */
  peek(bucketKey: string, policy: BucketPolicy): Promise<TakeResult>;
}

/** The bucket arithmetic, shared by the in-memory limiter and mirrored by token-bucket.lua. */
export function refill(tokens: number, lastMs: number, nowMs: number, policy: BucketPolicy): number {
  const elapsed = Math.max(0, nowMs - lastMs) / 1000;
  return Math.min(policy.capacity, tokens + elapsed * policy.refillPerSecond);
}

export function outcome(tokensAfter: number, allowed: boolean, nowMs: number, policy: BucketPolicy): TakeResult {
  const missing = policy.capacity - tokensAfter;
  return {
    allowed,
    remaining: Math.max(0, Math.floor(tokensAfter)),
    resetAt: Math.ceil((nowMs + (missing / policy.refillPerSecond) * 1000) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - tokensAfter) / policy.refillPerSecond)),
  };
}
