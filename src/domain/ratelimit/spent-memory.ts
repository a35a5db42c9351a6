// The in-process memory of empty buckets, around any limiter: a bucket found empty (by a refused
// take, by a take that spent its last token, or by a peek) is remembered
// until its next token is due, and until then a take or a peek that names it is answered here,
// without a Valkey round trip (a flooding client costs one per token, not one per request). Safe
// with several processes on one Valkey: the others can only empty a bucket further, never fill it
// sooner. `refusalNow` answers the same question synchronously, for the refusal in the Bun fetch
// handler before any of the pipeline runs (http/front-refusal.ts).
import type { Bucket, RateLimiter, TakeResult } from "./limiter";

/** Buckets remembered as empty at once; past it the oldest is forgotten (and asked again). */
const MAX_SPENT_BUCKETS = 100_000;

/**
 * One empty bucket of a refused take: when its next token is due (this process's clock, ms), and
 * what the limiter answered for every bucket of that take (the others spent nothing, so they hold
 * at least that much now).
 */
type Refusal = { due: number; results: ReadonlyMap<string, TakeResult> };

export type SpentMemory = RateLimiter & {
  /** The refusal of a take of `buckets` known now, or null when the limiter must be asked. */
  refusalNow(buckets: readonly Bucket[]): TakeResult[] | null;
  /** Whether any bucket is remembered as empty (the fetch handler's check is skipped otherwise). */
  isEmpty(): boolean;
};

export function rememberSpent(limiter: RateLimiter, now: () => number = Date.now): SpentMemory {
  /** Empty bucket key → its refusal, in order of remembering. */
  const spent = new Map<string, Refusal>();

  const remember = (buckets: readonly Bucket[], results: readonly TakeResult[]) => {
    const asked = new Map(buckets.map((b, i) => [b.key, results[i]!]));
    buckets.forEach((bucket, i) => {
      if (results[i]!.remaining >= 1) return;
      spent.delete(bucket.key); // re-inserted last: the map stays in order of remembering
      if (spent.size >= MAX_SPENT_BUCKETS) spent.delete(spent.keys().next().value!);
      spent.set(bucket.key, { due: now() + results[i]!.msUntilToken, results: asked });
    });
  };

  /** The remembered refusal of one empty bucket among `keys`, dropped once its token is due. */
  const knownEmpty = (keys: readonly string[]): Refusal | null => {
    for (const key of keys) {
      const refusal = spent.get(key);
      if (!refusal) continue;
      if (refusal.due > now()) return refusal;
      spent.delete(key);
    }
    return null;
  };

  /** What the limiter would answer now, from a refusal that remembered every bucket asked. */
  const replay = (refusal: Refusal, keys: readonly string[]): TakeResult[] | null => {
    const results: TakeResult[] = [];
    for (const key of keys) {
      const then = refusal.results.get(key);
      if (!then) return null;
      const msLeft = (spent.get(key)?.due ?? 0) - now();
      const empty = msLeft > 0;
      results.push({
        ...then,
        allowed: false,
        blocking: empty,
        retryAfter: empty ? Math.max(1, Math.ceil(msLeft / 1000)) : 0,
        msUntilToken: empty ? msLeft : 0,
      });
    }
    return results;
  };

  const refusalNow = (buckets: readonly Bucket[]) => {
    if (spent.size === 0) return null;
    const keys = buckets.map((b) => b.key);
    const refusal = knownEmpty(keys);
    return refusal ? replay(refusal, keys) : null;
  };

  return {
    backend: limiter.backend,
    refusalNow,
    isEmpty: () => spent.size === 0,
    async take(buckets) {
      const known = refusalNow(buckets);
      if (known) return known;
      const results = await limiter.take(buckets);
      if (results.some((r) => r.remaining < 1)) remember(buckets, results);
      return results;
    },
    async peek(key, policy) {
      const [known] = refusalNow([{ key, policy }]) ?? [];
      if (known) return { ...known, allowed: true };
      const result = await limiter.peek(key, policy);
      if (result.remaining < 1) remember([{ key, policy }], [result]);
      return result;
    },
  };
}
