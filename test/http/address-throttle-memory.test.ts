// The address throttle's memory of spent buckets (issue 23, the limiter's spent-memory.ts): a spent address is refused in-process
// only until its bucket's next token is due, then the limiter is asked again and the token spent.
// On the embedded mode's limiter with a hand-moved clock, so "due" is exact.
import { expect, test } from "bun:test";
import { createAddressThrottle } from "../../src/domain/ratelimit/address-throttle";
import { createMemoryLimiter } from "../../src/domain/ratelimit/memory-limiter";
import type { RateLimiter } from "../../src/domain/ratelimit/limiter";
import { rememberSpent } from "../../src/domain/ratelimit/spent-memory";

const POLICY = { capacity: 2, refillPerSecond: 0.5, limit: 30, windowSeconds: 60 };

function counted(limiter: RateLimiter) {
  const counter = { calls: 0 };
  return {
    counter,
    limiter: {
      backend: limiter.backend,
      take: (buckets) => (counter.calls++, limiter.take(buckets)),
      peek: (key, policy) => (counter.calls++, limiter.peek(key, policy)),
    } satisfies RateLimiter,
  };
}

test("refused without the limiter until the next token is due, then asked again", async () => {
  let nowMs = 1_000_000;
  const clock = () => nowMs;
  const { limiter, counter } = counted(createMemoryLimiter(clock));
  const throttle = createAddressThrottle(rememberSpent(limiter, clock), POLICY);
  await throttle.charge("192.0.2.1");
  await throttle.charge("192.0.2.1");
  const callsWhenSpent = counter.calls;

  nowMs += 1500; // three quarters of a token
  const refusal = await throttle.check("192.0.2.1").catch((error) => error);
  expect(refusal).toMatchObject({ status: 429 });
  expect(refusal.extra.headers["retry-after"]).toBe("1"); // a quarter of a token, 0.5 s, rounded up
  expect(counter.calls).toBe(callsWhenSpent);

  nowMs += 500; // one whole token now
  await throttle.check("192.0.2.1");
  expect(counter.calls).toBe(callsWhenSpent + 1);
  await throttle.charge("192.0.2.1");
  expect(await throttle.check("192.0.2.1").catch((error) => error)).toMatchObject({ status: 429 });

  // Another address has its own bucket, read from the limiter.
  await throttle.check("192.0.2.2");
});
