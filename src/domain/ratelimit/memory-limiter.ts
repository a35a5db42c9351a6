// In-process token buckets: the embedded-mode limiter, and the per-replica fallback when Valkey is
// down.
import {
  outcome,
  refill,
  type Bucket,
  type BucketPolicy,
  type RateLimiter,
  type TakeResult,
} from "./limiter";

const MAX_BUCKETS = 100_000;

export function createMemoryLimiter(now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; lastMs: number }>();

  function current(key: string, policy: BucketPolicy, nowMs: number) {
    const b = buckets.get(key);
    return b ? refill(b.tokens, b.lastMs, nowMs, policy) : policy.capacity;
  }

  return {
    backend: "memory",
    async take(wanted: readonly Bucket[]): Promise<TakeResult[]> {
      const nowMs = now();
      const tokens = wanted.map((b) => current(b.key, b.policy, nowMs));
      const allowed = tokens.every((t) => t >= 1);
      return wanted.map((b, i) => {
        const after = allowed ? tokens[i]! - 1 : tokens[i]!;
        if (buckets.size >= MAX_BUCKETS && !buckets.has(b.key))
          buckets.delete(buckets.keys().next().value!);
        buckets.set(b.key, { tokens: after, lastMs: nowMs });
        return outcome(after, allowed, nowMs, b.policy);
      });
    },
    async peek(key: string, policy: BucketPolicy): Promise<TakeResult> {
      const nowMs = now();
      return outcome(current(key, policy, nowMs), true, nowMs, policy);
    },
  };
}
