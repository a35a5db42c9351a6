// What a pass works with: its scope, its resume cursor, reads, and `commit`, the one way a pass
// changes anything. Every commit is one tenant transaction that takes the tenant's graph lock,
// proves this delivery still holds the run lease, applies the batch, appends its refine_changes and
// saves the job's progress (counts, cursor, change seq). A crash therefore loses or repeats no
// batch.
import type { Ports } from "../../ports/ports";
import type { Tx } from "../../../data/pools";
import {
  insertRefineChanges,
  lockTenantGraph,
  renewRefineLease,
  type RefineChangeInput,
} from "../../../data/queries/forge/refine/runs";
import type { RefineScope } from "../../../data/queries/forge/refine/scope";
import { withTenant } from "../../../data/with-tenant";
import { saveJobProgress } from "../../jobs/progress";
import type { RefineLlm } from "./llm-budget";
import type { PassName } from "./pass-names";
import { addCounts, type RefineProgress } from "./progress";

export type PassChange = Omit<RefineChangeInput, "pass">;

export type BatchResult = {
  changes?: PassChange[];
  counts?: Record<string, number>;
  notes?: string[];
  /** Where the pass resumes if the run stops after this batch. */
  cursor: unknown;
};

/**
 * What a refine run uses: its reads and writes, the LLM for its judged passes, the queue to wait.
 */
export type RefinePorts = Pick<Ports, "db" | "config" | "llm" | "log" | "queue">;

export type PassContext = {
  readonly deps: RefinePorts;
  readonly orgId: string;
  readonly jobId: string;
  readonly scope: RefineScope;
  readonly dryRun: boolean;
  /** The resume point saved by the last committed batch of this pass, or null on a fresh start. */
  readonly cursor: unknown;
  readonly llm: RefineLlm;
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  commit(work: (tx: Tx) => Promise<BatchResult>): Promise<void>;
  /** Renews the lease and the job heartbeat between batches (long computations, LLM calls). */
  keepAlive(): Promise<void>;
};

export class LeaseLostError extends Error {}

export type RunState = {
  deps: RefinePorts;
  orgId: string;
  jobId: string;
  holder: string;
  scope: RefineScope;
  dryRun: boolean;
  llm: RefineLlm;
  /** The run's passes in run order (jsonb does not keep the key order of progress.passes). */
  passes: PassName[];
  progress: RefineProgress;
};

/**
 * Runs `work` as one batch of the run: lock, lease check, effect, changes, progress, all or
 * nothing.
 */
export async function commitBatch(
  state: RunState,
  work: (tx: Tx, progress: RefineProgress) => Promise<RefineProgress>,
): Promise<void> {
  const { deps, orgId, jobId, holder } = state;
  const next = await withTenant(deps.db, orgId, async (tx) => {
    await lockTenantGraph(tx);
    if (!(await renewRefineLease(tx, holder, deps.config.REFINE_LEASE_SECONDS)))
      throw new LeaseLostError(`refine job ${jobId} lost its lease to another run`);
    const progress = await work(tx, structuredClone(state.progress));
    await saveJobProgress(tx, jobId, progress);
    return progress;
  });
  state.progress = next;
}

/**
 * The context a pass runs with, and `done`, which records the pass finished (and its last stretch
 * of time).
 */
export function passContext(
  state: RunState,
  pass: PassName,
): { ctx: PassContext; done: () => Promise<void> } {
  let mark = performance.now();
  const elapsed = () => {
    const now = performance.now();
    const ms = Math.round(now - mark);
    mark = now;
    return ms;
  };
  const ctx: PassContext = {
    deps: state.deps,
    orgId: state.orgId,
    jobId: state.jobId,
    scope: state.scope,
    dryRun: state.dryRun,
    cursor: state.progress.current === pass ? state.progress.cursor : null,
    llm: state.llm,
    read: (fn) => withTenant(state.deps.db, state.orgId, fn),
    commit: (work) =>
      commitBatch(state, async (tx, p) => {
        const result = await work(tx);
        const changes = (result.changes ?? []).map((c) => ({ ...c, pass }));
        if (changes.length > 0)
          await insertRefineChanges(tx, state.orgId, state.jobId, p.seq + 1, changes);
        const stats = p.passes[pass]!;
        stats.state = "running";
        stats.batches++;
        stats.duration_ms += elapsed();
        addCounts(stats.counts, result.counts ?? {});
        for (const note of result.notes ?? [])
          if (!stats.notes.includes(note)) stats.notes.push(note);
        return { ...p, current: pass, cursor: result.cursor, seq: p.seq + changes.length };
      }),
    keepAlive: () => commitBatch(state, async (_tx, p) => p),
  };
  const done = () =>
    commitBatch(state, async (_tx, p) => {
      const stats = p.passes[pass]!;
      stats.state = "done";
      stats.duration_ms += elapsed();
      return { ...p, current: state.passes[state.passes.indexOf(pass) + 1] ?? null, cursor: null };
    });
  return { ctx, done };
}
