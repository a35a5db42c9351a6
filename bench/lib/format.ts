// Number formatting for the benchmark tables: "—" for a figure that was not measured.
export const fmt = (n: number | undefined, digits = 1) =>
  n === undefined || Number.isNaN(n)
    ? "—"
    : n >= 100
      ? Math.round(n).toLocaleString("en-US")
      : n.toFixed(digits);
