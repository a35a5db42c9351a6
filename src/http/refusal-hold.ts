// A client address out of failed authentications has its 429 held a moment (issue 23): a
// closed-loop flood of made-up keys answered at once sends the next at once, so refusing faster
// only brings more refusals (a few thousand a second on two cores, each a parse and an answer).
// Held for up to HOLD_MS (never past Retry-After), each of the flood's connections costs a timer,
// not a core. A client that waits for Retry-After never meets it. The held answers are bounded per
// address and in all, so a flood of connections cannot make the holding itself the cost; past
// either bound the 429 is answered at once, as before.

/** A refusal's longest wait: enough to idle a closed loop, well short of client timeouts. */
const HOLD_MS = 1000;

export type RefusalHoldLimits = { perAddress: number; total: number };
/** Enough for a browser's connections per host and for a few hundred abusive addresses at once. */
export const REFUSAL_HOLD_LIMITS: RefusalHoldLimits = { perAddress: 16, total: 4096 };

export type RefusalHold = (
  address: string,
  retryAfterSeconds: number,
  answer: () => Response,
) => Response | Promise<Response>;

/** `sleep` is the test's clock. */
export function createRefusalHold(
  limits: RefusalHoldLimits = REFUSAL_HOLD_LIMITS,
  sleep: (ms: number) => Promise<void> = (ms) => Bun.sleep(ms),
): RefusalHold {
  const heldBy = new Map<string, number>();
  let held = 0;
  return (address, retryAfterSeconds, answer) => {
    const mine = heldBy.get(address) ?? 0;
    if (mine >= limits.perAddress || held >= limits.total) return answer();
    heldBy.set(address, mine + 1);
    held++;
    return sleep(Math.min(HOLD_MS, retryAfterSeconds * 1000)).then(() => {
      held--;
      const left = heldBy.get(address)! - 1;
      if (left === 0) heldBy.delete(address);
      else heldBy.set(address, left);
      return answer();
    });
  };
}
