// The hold of a client address's refusal (src/http/refusal-hold.ts) on a clock the test turns: held
// no longer than a second nor past Retry-After, and answered at once past the per-address or total
// bound, so a flood of connections cannot pile up held answers.
import { expect, test } from "bun:test";
import { createRefusalHold } from "../../src/http/refusal-hold";

function clock() {
  const sleeping: Array<{ ms: number; wake: () => void }> = [];
  return {
    sleep: (ms: number) => new Promise<void>((wake) => void sleeping.push({ ms, wake })),
    sleeping,
    wakeAll: () => {
      for (const s of sleeping.splice(0)) s.wake();
    },
  };
}

const answer = () => new Response("refused", { status: 429 });

test("a refusal is held a second, or until Retry-After when that is sooner", async () => {
  const time = clock();
  const hold = createRefusalHold({ perAddress: 4, total: 10 }, time.sleep);
  const long = hold("203.0.113.1", 3600, answer);
  const short = hold("203.0.113.1", 0.5, answer);
  expect(long).toBeInstanceOf(Promise);
  expect(time.sleeping.map((s) => s.ms)).toEqual([1000, 500]);
  time.wakeAll();
  expect((await long).status).toBe(429);
  expect((await short).status).toBe(429);
});

test("past the per-address or the total bound the refusal is answered at once", async () => {
  const time = clock();
  const hold = createRefusalHold({ perAddress: 2, total: 3 }, time.sleep);
  const a = [hold("a", 60, answer), hold("a", 60, answer), hold("a", 60, answer)];
  expect(a.map((r) => r instanceof Promise)).toEqual([true, true, false]);
  expect(hold("b", 60, answer)).toBeInstanceOf(Promise); // 3 held in all
  expect(hold("c", 60, answer)).toBeInstanceOf(Response);
  time.wakeAll();
  await Promise.all(a);
  // Released: each address may be held again.
  expect(hold("a", 60, answer)).toBeInstanceOf(Promise);
  expect(hold("c", 60, answer)).toBeInstanceOf(Promise);
});
