// Latency percentiles and a bounded concurrent loop: the only load generator the benchmarks use.
export type Latency = {
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
};

export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Runs `fn` `count` times with `concurrency` in flight, stopping early after `maxSeconds`.
 * `fn` resolves to false when the request failed; failures are counted, not timed.
 */
export async function loop(
  count: number,
  concurrency: number,
  maxSeconds: number,
  fn: (i: number) => Promise<boolean>,
): Promise<Latency> {
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count && performance.now() < deadline) {
        const i = next++;
        const t0 = performance.now();
        if (await fn(i)) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors,
  };
}
