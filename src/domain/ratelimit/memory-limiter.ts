// In-process token buckets: the embedded-mode limiter, and the per-replica fallback when Valkey is down.
import { outcome, refill, type BucketPolicy, type RateLimiter, type TakeResult } from "./limiter";

const MAX_BUCKETS = 100_000;

export function createMemoryLimiter(now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; lastMs: number }>();

  function current(key: string, policy: BucketPolicy, nowMs: number) {
    const b = buckets.get(key);
    return b ? refill(b.tokens, b.lastMs, nowMs, policy) : policy.capacity;
  }

  return {
    backend: "memory",
    async take(key: string, policy: BucketPolicy): Promise<TakeResult> {
      const nowMs = now();
      let tokens = current(key, policy, nowMs);
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      if (buckets.size >= MAX_BUCKETS && !buckets.has(key)) buckets.delete(buckets.keys().next().value!);
      buckets.set(key, { tokens, lastMs: nowMs });
      return outcome(tokens, allowed, nowMs, policy);
    },
    async peek(key: string, policy: BucketPolicy): Promise<TakeResult> {
      const nowMs = now();
      return outcome(current(key, policy, nowMs), true, nowMs, policy);
    },
  };
}
