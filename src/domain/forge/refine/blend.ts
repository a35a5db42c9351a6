// The feedback blend: an exponential moving average of signals mapped to targets −1 → 0, 0 → 0.5,
// +1 → 1.
export type Signal = -1 | 0 | 1;

export type WeightedSignal = { signal: Signal; alpha: number };

export const signalTarget = (signal: Signal): number => (signal + 1) / 2;

/** Folds the signals, oldest first, into `start`: w ← w + α·(r − w), kept within [0, 1]. */
export function blend(start: number, signals: WeightedSignal[]): number {
  let w = start;
  for (const { signal, alpha } of signals)
    w = Math.min(1, Math.max(0, w + alpha * (signalTarget(signal) - w)));
  // real columns hold ~7 significant digits; round so a dry run reports what a real run stores.
  return Math.round(w * 1e6) / 1e6;
}
