// "Against the targets", computed from the figures of the same run: a target is met only where
// every figure it applies to was measured and passes; without a figure it is "not measured", never
// assumed.
import { fmt } from "./format";

export type Verdict = "met" | "missed" | "not measured";
export type TargetRow = { target: string; measured: string; verdict: Verdict };

/** What the targets read from one tier of `npm run bench`. */
export type TierFigures = {
  tier: string;
  memories: number;
  batchStorePerSecond: number;
  /**
   * svc.generate_embedding's graphing afterwards (the vector backlog): said beside the route's
   * rate.
   */
  graphPerSecond?: number;
  recall: { p95: number; perSecond: number };
  sql: { recallAt10: number };
  peers?: { store: string; search: { perSecond: number } }[];
};

type Check = { label: string; value: number; pass: boolean; text: string };

function verdictOf(checks: Check[]): Verdict {
  if (checks.length === 0 || checks.some((c) => !Number.isFinite(c.value))) return "not measured";
  return checks.every((c) => c.pass) ? "met" : "missed";
}

function row(target: string, checks: Check[], missing: string): TargetRow {
  const measured =
    checks.length === 0 ? missing : checks.map((c) => `${c.text} (${c.label})`).join("; ");
  return { target, measured, verdict: verdictOf(checks) };
}

export function targetRows(results: TierFigures[]): TargetRow[] {
  const at = (memories: number) => results.filter((r) => r.memories === memories);
  const latency =
    (limitMs: number) =>
    (r: TierFigures): Check => ({
      label: r.tier,
      value: r.recall.p95,
      pass: r.recall.p95 <= limitMs,
      text: `p95 ${fmt(r.recall.p95, 2)} ms`,
    });
  const peerStores = [...new Set(results.flatMap((r) => (r.peers ?? []).map((p) => p.store)))];
  return [
    row(
      "recall p95 ≤ 20 ms at 100k memories in one agent (HTTP, VECTOR, c=1)",
      at(100_000).map(latency(20)),
      "no 100k tier in this run",
    ),
    row(
      "recall p95 ≤ 50 ms at 1M memories (HTTP, VECTOR, c=1)",
      at(1_000_000).map(latency(50)),
      "no 1M tier in this run (`--tier=1m`)",
    ),
    row(
      "ANN recall@10 ≥ 0.95 against an exact scan of the same filtered query",
      results.map((r) => ({
        label: r.tier,
        value: r.sql.recallAt10,
        pass: r.sql.recallAt10 >= 0.95,
        text: r.sql.recallAt10.toFixed(3),
      })),
      "no tier",
    ),
    // The bulk-loaded 1m tier has no batch-route figure (NaN): it is left out rather than "not
    // measured".
    row(
      "batch store ≥ 2,000 memories/s",
      results
        .filter((r) => !Number.isNaN(r.batchStorePerSecond))
        .map((r) => ({
          label: r.tier,
          value: r.batchStorePerSecond,
          pass: r.batchStorePerSecond >= 2000,
          text: `${fmt(r.batchStorePerSecond)}/s${r.graphPerSecond !== undefined && Number.isFinite(r.graphPerSecond) ? `, then ${fmt(r.graphPerSecond)}/s into the graph` : ""}`,
        })),
      "no tier",
    ),
    ...(peerStores.length === 0
      ? [row("≥ 10× the peer's search throughput (c=1)", [], "no peer in this run")]
      : peerStores.map((store) =>
          row(
            `≥ 10× the peer's search throughput (c=1): mem0 ${store}`,
            results.flatMap((r) =>
              (r.peers ?? [])
                .filter((p) => p.store === store)
                .map((p) => {
                  const times = r.recall.perSecond / p.search.perSecond;
                  return {
                    label: r.tier,
                    value: times,
                    pass: times >= 10,
                    text: `${fmt(times, 2)}× (${fmt(r.recall.perSecond)} vs ${fmt(p.search.perSecond, 2)}/s)`,
                  };
                }),
            ),
            "not run",
          ),
        )),
  ];
}

export function targetsTable(results: TierFigures[]): string[] {
  return [
    "",
    "Against the targets (verdicts computed from the figures above):",
    "",
    "| target | measured | verdict |",
    "|---|---|---|",
    ...targetRows(results).map(
      (t) =>
        `| ${t.target} | ${t.measured} | ${t.verdict === "met" ? "met" : `**${t.verdict}**`} |`,
    ),
  ];
}
