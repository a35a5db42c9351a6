// svc.refine_run's body: claim the tenant's run lease (or wait for the run holding it), run the
// requested passes in order from wherever the last committed batch left off, then settle the job
// row, release the lease and audit, in one transaction.
import type { Ports } from "../../ports/ports";
import {
  acquireRefineLease,
  lockTenantGraph,
  releaseRefineLease,
} from "../../../data/queries/forge/refine/runs";
import { withTenant } from "../../../data/with-tenant";
import type { Actor } from "../../actor";
import { recordAudit } from "../../audit/record";
import { AppError } from "../../../lib/errors";
import { claimJob, readJob } from "../../jobs/claim";
import { saveJobProgress } from "../../jobs/progress";
import { settleJob } from "../../jobs/settle";
import { passContext, type RefinePorts, type RunState } from "./context";
import { refineLlm } from "./llm-budget";
import { PASSES } from "./passes";
import { progressOf, type RefineProgress, type RefineRequest } from "./progress";

export type RunOutcome =
  | { state: "missing" | "already-finished"; job_id: string }
  | { state: "waiting"; job_id: string; waiting_for: string; retry_in_ms: number; waits: number }
  | { state: "succeeded" | "failed"; job_id: string; changes: number; error?: string };

type Claim =
  | { kind: "missing" }
  | { kind: "finished" }
  | { kind: "busy"; holderJob: string; retryInMs: number; waits: number }
  | { kind: "ours"; request: RefineRequest; progress: RefineProgress };

/** Longest wait before a run blocked by another run looks again. */
const MAX_WAIT_MS = 30_000;

async function claim(
  deps: RefinePorts,
  orgId: string,
  jobId: string,
  holder: string,
): Promise<Claim> {
  return withTenant(deps.db, orgId, async (tx) => {
    const job = await readJob(tx, jobId);
    if (!job || job.kind !== "refine") return { kind: "missing" };
    if (job.state !== "queued" && job.state !== "running") return { kind: "finished" };
    const request = job.payload as unknown as RefineRequest;
    const progress = progressOf((job as { progress?: unknown }).progress, request.passes);
    const lease = await acquireRefineLease(
      tx,
      orgId,
      jobId,
      holder,
      deps.config.REFINE_LEASE_SECONDS,
    );
    if (lease.holder !== holder) {
      const waits = (progress.waits ?? 0) + 1;
      await saveJobProgress(tx, jobId, { ...progress, waiting_for: lease.job_id, waits });
      const retryInMs = Math.min(
        MAX_WAIT_MS,
        Math.max(1000, lease.expires_at.getTime() - Date.now()),
      );
      return { kind: "busy", holderJob: lease.job_id, retryInMs, waits };
    }
    await claimJob(tx, jobId);
    return { kind: "ours", request, progress: { ...progress, waiting_for: null } };
  });
}

const actorOf = (orgId: string, request: RefineRequest): Actor => ({
  orgId,
  keyId: request.key_id,
  requestId: request.request_id,
  role: request.key_id ? "tenant" : "system",
});

function publicError(error: unknown): string {
  if (error instanceof AppError) return error.detail;
  return "an internal error stopped the run; the worker log has the details (search for this job id)";
}

export async function runRefineJob(
  deps: RefinePorts,
  orgId: string,
  jobId: string,
  finalAttempt: boolean,
): Promise<RunOutcome> {
  const holder = `${jobId}/${crypto.randomUUID()}`;
  const claimed = await claim(deps, orgId, jobId, holder);
  if (claimed.kind === "missing" || claimed.kind === "finished")
    return { state: claimed.kind === "missing" ? "missing" : "already-finished", job_id: jobId };
  if (claimed.kind === "busy") {
    await deps.queue.enqueue(
      "svc.refine_run",
      { org_id: orgId, job_id: jobId },
      { jobId: `refine-${jobId}-wait${claimed.waits}`, delayMs: claimed.retryInMs },
    );
    return {
      state: "waiting",
      job_id: jobId,
      waiting_for: claimed.holderJob,
      retry_in_ms: claimed.retryInMs,
      waits: claimed.waits,
    };
  }

  const { request } = claimed;
  const state: RunState = {
    deps,
    orgId,
    jobId,
    holder,
    passes: request.passes,
    progress: claimed.progress,
    dryRun: request.dry_run,
    scope: { agentId: request.agent_id, datasetId: request.dataset_id },
    llm: refineLlm(deps.llm, orgId, deps.config.REFINE_LLM_MAX_CALLS),
  };
  try {
    for (const name of request.passes) {
      if (state.progress.passes[name]?.state === "done") continue;
      const { ctx, done } = passContext(state, name);
      await PASSES[name](ctx);
      await done();
    }
  } catch (error) {
    deps.log.warn({
      msg: "refine run failed",
      org_id: orgId,
      job_id: jobId,
      pass: state.progress.current,
      final: finalAttempt,
      err: error,
    });
    if (!finalAttempt) {
      // The retry is another delivery (another holder): let it in at once instead of after the
      // lease lapses.
      await withTenant(deps.db, orgId, (tx) => releaseRefineLease(tx, holder)).catch(() => {});
      throw error;
    }
    await settle(state, request, "failed", publicError(error));
    return {
      state: "failed",
      job_id: jobId,
      changes: state.progress.seq,
      error: publicError(error),
    };
  }
  await settle(state, request, "succeeded");
  return { state: "succeeded", job_id: jobId, changes: state.progress.seq };
}

async function settle(
  state: RunState,
  request: RefineRequest,
  outcome: "succeeded" | "failed",
  error?: string,
): Promise<void> {
  const { orgId, jobId, progress } = state;
  const passes = Object.fromEntries(
    request.passes.map((p) => [p, progress.passes[p]?.counts ?? {}]),
  );
  await withTenant(state.deps.db, orgId, async (tx) => {
    await lockTenantGraph(tx);
    await settleJob(tx, orgId, jobId, outcome, {
      result: { dry_run: request.dry_run, changes: progress.seq, passes },
      error,
    });
    await releaseRefineLease(tx, state.holder);
    await recordAudit(tx, actorOf(orgId, request), {
      operation: "refine",
      agentId: request.agent_id,
      targetIds: [jobId],
      detail: {
        phase: outcome,
        trigger: request.trigger,
        dry_run: request.dry_run,
        dataset_id: request.dataset_id,
        changes: progress.seq,
        passes,
      },
    });
  });
}
