// What a refine job row carries: the request (payload) and the run's progress, which is saved in
// the same transaction as every batch so a resumed delivery continues exactly where the last commit
// left off.
import type { PassName } from "./pass-names";

export type RefineRequest = {
  agent_id: string | null;
  dataset_id: string | null;
  passes: PassName[];
  dry_run: boolean;
  trigger: "api" | "scheduler";
  /** Who asked (API runs), for the completion audit row. */
  key_id: string | null;
  request_id: string | null;
};

export type PassState = "pending" | "running" | "done";

export type PassProgress = {
  state: PassState;
  counts: Record<string, number>;
  duration_ms: number;
  batches: number;
  /** Why a step of the pass did less than it could (LLM budget spent, clusters too large, …). */
  notes: string[];
};

export type RefineProgress = {
  passes: Partial<Record<PassName, PassProgress>>;
  /** The pass under way and its resume point (pass-specific JSON). */
  current: PassName | null;
  cursor: unknown;
  /** Last refine_changes seq written by this job. */
  seq: number;
  /** Set while the run waits for another run's lease. */
  waiting_for?: string | null;
  waits?: number;
};

export function initialProgress(passes: PassName[]): RefineProgress {
  return {
    passes: Object.fromEntries(
      passes.map((p) => [
        p,
        { state: "pending", counts: {}, duration_ms: 0, batches: 0, notes: [] },
      ]),
    ),
    current: passes[0] ?? null,
    cursor: null,
    seq: 0,
  };
}

/** A job row's progress column, or a fresh one when the run never committed a batch. */
export function progressOf(stored: unknown, passes: PassName[]): RefineProgress {
  const p = stored as Partial<RefineProgress> | null;
  if (!p || typeof p !== "object" || !p.passes || typeof p.seq !== "number")
    return { ...initialProgress(passes), waits: (p as RefineProgress | null)?.waits ?? 0 };
  return p as RefineProgress;
}

export function addCounts(into: Record<string, number>, counts: Record<string, number>): void {
  for (const [name, n] of Object.entries(counts)) if (n !== 0) into[name] = (into[name] ?? 0) + n;
}
