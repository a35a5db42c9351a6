// The benchmark's "Against the targets" verdicts come from the measured figures: a figure past its
// limit is "missed", a target with no figure in the run is "not measured", and only passing figures
// make "met".
import { expect, test } from "bun:test";
import { targetRows, type TierFigures } from "../../bench/lib/targets";

const tier = (
  name: string,
  memories: number,
  p95: number,
  batch: number,
  recallAt10: number,
  peers?: TierFigures["peers"],
): TierFigures => ({
  tier: name,
  memories,
  batchStorePerSecond: batch,
  recall: { p95, perSecond: 1000 / p95 },
  sql: { recallAt10 },
  peers,
});

const verdicts = (results: TierFigures[]) =>
  Object.fromEntries(
    targetRows(results).map((r) => [r.target.split(" (")[0]!.split(":")[0]!, r.verdict]),
  );

test("a 10k-only run measures neither scale target, and a passing figure at one tier cannot carry a failing one", () => {
  const v = verdicts([
    tier("10k", 10_000, 12, 2500, 0.99, [{ store: "pgvector", search: { perSecond: 40 } }]),
  ]);
  expect(v["recall p95 ≤ 20 ms at 100k memories in one agent"]).toBe("not measured");
  expect(v["recall p95 ≤ 50 ms at 1M memories"]).toBe("not measured");
  expect(v["batch store ≥ 2,000 memories/s"]).toBe("met");
  expect(v["≥ 10× the peer's search throughput"]).toBe("missed"); // 83/s against 40/s is 2×

  const both = verdicts([
    tier("10k", 10_000, 12, 2500, 0.99),
    tier("100k", 100_000, 25, 1900, 0.94),
  ]);
  expect(both["recall p95 ≤ 20 ms at 100k memories in one agent"]).toBe("missed");
  expect(both["batch store ≥ 2,000 memories/s"]).toBe("missed");
  expect(both["ANN recall@10 ≥ 0.95 against an exact scan of the same filtered query"]).toBe(
    "missed",
  );
});

test("every limit is inclusive and a figure that is not a number is not measured", () => {
  const v = verdicts([
    tier("100k", 100_000, 20, 2000, 0.95),
    tier("1m", 1_000_000, NaN, 2000, 0.95),
  ]);
  expect(v["recall p95 ≤ 20 ms at 100k memories in one agent"]).toBe("met");
  expect(v["ANN recall@10 ≥ 0.95 against an exact scan of the same filtered query"]).toBe("met");
  expect(v["recall p95 ≤ 50 ms at 1M memories"]).toBe("not measured");
  expect(v["≥ 10× the peer's search throughput"]).toBe("not measured");
});
