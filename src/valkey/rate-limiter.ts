// Token buckets in Valkey through one Lua script (EVALSHA) that takes from several buckets
// atomically; falls back to per-replica in-memory buckets when Valkey is unreachable, so limiting
// degrades instead of failing open or failing requests.
import type Redis from "ioredis";
import script from "./token-bucket.lua" with { type: "text" };
import {
  outcome,
  type Bucket,
  type BucketPolicy,
  type RateLimiter,
  type TakeResult,
} from "../domain/ratelimit/limiter";
import { createMemoryLimiter } from "../domain/ratelimit/memory-limiter";

type BucketRedis = Redis & {
  svcTokenBuckets(keyCount: number, ...args: Array<string | number>): Promise<number[]>;
};

export function createValkeyLimiter(
  redis: Redis,
  onFallback: (error: unknown) => void,
): RateLimiter {
  redis.defineCommand("svcTokenBuckets", { lua: script });
  const client = redis as BucketRedis;
  const fallback = createMemoryLimiter();

  async function run(buckets: readonly Bucket[], cost: number): Promise<TakeResult[]> {
    try {
      const args = [
        ...buckets.map((b) => `svc:rl:${b.key}`),
        cost,
        ...buckets.flatMap((b) => [b.policy.capacity, b.policy.refillPerSecond]),
      ];
      const [allowed, nowMs, ...milliTokens] = await client.svcTokenBuckets(
        buckets.length,
        ...args,
      );
      return buckets.map((b, i) =>
        outcome(milliTokens[i]! / 1000, allowed === 1, nowMs!, b.policy),
      );
    } catch (error) {
      onFallback(error);
      return cost > 0
        ? fallback.take(buckets)
        : [await fallback.peek(buckets[0]!.key, buckets[0]!.policy)];
    }
  }

  return {
    backend: "valkey",
    take: (buckets) => run(buckets, 1),
    peek: async (key: string, policy: BucketPolicy) => (await run([{ key, policy }], 0))[0]!,
  };
}
