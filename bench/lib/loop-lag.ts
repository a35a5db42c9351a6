// How late this process's event loop runs a timer: a 5 ms interval timer's lateness, sampled
// until stopped. A request the server could answer at once waits about this long for its turn.
export function loopLag(periodMs = 5) {
  const lateMs: number[] = [];
  let expected = performance.now() + periodMs;
  const timer = setInterval(() => {
    const now = performance.now();
    lateMs.push(Math.max(0, now - expected));
    expected = now + periodMs;
  }, periodMs);
  return {
    /** The lateness of every tick since the start, sorted. */
    stop(): number[] {
      clearInterval(timer);
      return lateMs.sort((x, y) => x - y);
    },
  };
}
