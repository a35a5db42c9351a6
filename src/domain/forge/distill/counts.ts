// The counters a distill job reports (GET /v1/distill/{job_id}, jobs.result, the audit rows).
export const COUNT_NAMES = [
  "memos_created",
  "memos_reused",
  "edges_created",
  "edges_reinforced",
  "edges_superseded",
  /**
   * A re-distill after a PATCH: rows only the memory's older version grounded ('source_revised').
   */
  "edges_retired",
  "memos_retired",
] as const;

export type DistillCounts = Record<(typeof COUNT_NAMES)[number], number>;

export const zeroCounts = (): DistillCounts =>
  Object.fromEntries(COUNT_NAMES.map((n) => [n, 0])) as DistillCounts;

export const addCounts = (a: DistillCounts, b: DistillCounts): DistillCounts =>
  Object.fromEntries(COUNT_NAMES.map((n) => [n, a[n] + b[n]])) as DistillCounts;

/**
 * Counters persisted in jobs.progress by an earlier attempt of the same job (absent or malformed:
 * zero).
 */
export function countsFrom(value: unknown): DistillCounts {
  const source =
    value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(
    COUNT_NAMES.map((n) => [n, Number.isInteger(source[n]) ? (source[n] as number) : 0]),
  ) as DistillCounts;
}
