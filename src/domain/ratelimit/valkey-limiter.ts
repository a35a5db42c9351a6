// Token buckets in Valkey through one Lua script (EVALSHA); falls back to a per-replica in-memory bucket
// when Valkey is unreachable, so limiting degrades instead of failing open or failing requests.
import type Redis from "ioredis";
import script from "./token-bucket.lua" with { type: "text" };
import { outcome, type BucketPolicy, type RateLimiter, type TakeResult } from "./limiter";
import { createMemoryLimiter } from "./memory-limiter";

type BucketRedis = Redis & { svcTokenBucket(key: string, capacity: number, rate: number, cost: number): Promise<[number, number, number]> };

export function createValkeyLimiter(redis: Redis, onFallback: (error: unknown) => void): RateLimiter {
  redis.defineCommand("svcTokenBucket", { numberOfKeys: 1, lua: script });
  const client = redis as BucketRedis;
  const fallback = createMemoryLimiter();

  async function run(key: string, policy: BucketPolicy, cost: number): Promise<TakeResult> {
    try {
      const [allowed, milliTokens, nowMs] = await client.svcTokenBucket(`svc:rl:${key}`, policy.capacity, policy.refillPerSecond, cost);
      return outcome(milliTokens / 1000, allowed === 1, nowMs, policy);
    } catch (error) {
      onFallback(error);
      return cost > 0 ? fallback.take(key, policy) : fallback.peek(key, policy);
    }
  }

  return {
    backend: "valkey",
    take: (key, policy) => run(key, policy, 1),
    peek: (key, policy) => run(key, policy, 0),
  };
}
