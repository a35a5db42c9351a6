// Ending an ingest job: the job row, the source's completion, the completion audit row (with
// counts) and the chained distill job commit in one transaction; the distill wake-up is enqueued
// after it.
import type { Ports } from "../../ports/ports";
import { findChainedDistill, insertChainedDistill } from "../../../data/queries/ingest/jobs";
import { completeSource, sourceMemoryIds } from "../../../data/queries/ingest/sources";
import { settleJob } from "../../jobs/settle";
import type { Tx } from "../../../data/pools";
import { withTenant } from "../../../data/with-tenant";
import type { Actor } from "../../actor";
import { recordAudit } from "../../audit/record";
import { newId } from "../../../lib/ids";
import type { IngestFailureReason } from "../payload";

export type JobOutcome = {
  jobId: string;
  agentId: string;
  sourceId: string | null;
  loader: string | null;
  detectedType: string | null;
  warnings: string[];
  /** Identical content was already ingested: nothing new was stored. */
  duplicateOf?: { source_id: string; job_id: string };
  extra?: Record<string, unknown>;
};

type Chain = { distill_job_id: string | null; distill_skipped: string | null };

/** INGEST_AUTO_DISTILL: one distill job per ingest job, however often the ingest job runs. */
async function chainDistill(
  tx: Tx,
  deps: Pick<Ports, "config">,
  actor: Actor,
  outcome: JobOutcome,
  memoryIds: string[],
): Promise<Chain> {
  if (!deps.config.INGEST_AUTO_DISTILL)
    return { distill_job_id: null, distill_skipped: "INGEST_AUTO_DISTILL=false" };
  if (outcome.duplicateOf)
    return { distill_job_id: null, distill_skipped: "nothing new was stored (duplicate content)" };
  if (memoryIds.length === 0)
    return { distill_job_id: null, distill_skipped: "no memories were stored" };
  if (!deps.config.DISTILL_ENABLED)
    return {
      distill_job_id: null,
      distill_skipped: "distill is disabled on this server (DISTILL_ENABLED=false)",
    };
  const existing = await findChainedDistill(tx, outcome.jobId);
  if (existing) return { distill_job_id: existing.job_id, distill_skipped: null };
  const jobId = newId("job");
  await insertChainedDistill(tx, {
    org_id: actor.orgId,
    job_id: jobId,
    parent_job_id: outcome.jobId,
    agent_id: outcome.agentId,
    memory_ids: memoryIds,
  });
  return { distill_job_id: jobId, distill_skipped: null };
}

export async function enqueueDistill(
  deps: Pick<Ports, "queue" | "log">,
  orgId: string,
  distillJobId: string,
): Promise<void> {
  try {
    await deps.queue.enqueue(
      "svc.forge_distill",
      { org_id: orgId, job_id: distillJobId },
      { jobId: `distill-${distillJobId}` },
    );
  } catch (error) {
    deps.log.warn({
      msg: "could not enqueue svc.forge_distill; the watchdog will pick the job up",
      org_id: orgId,
      job_id: distillJobId,
      err: (error as Error).message,
    });
  }
}

export async function settleSucceeded(
  deps: Pick<Ports, "db" | "config" | "queue" | "log">,
  actor: Actor,
  outcome: JobOutcome,
): Promise<Record<string, unknown>> {
  const settled = await withTenant(deps.db, actor.orgId, async (tx) => {
    const linkedSource = outcome.duplicateOf?.source_id ?? outcome.sourceId;
    const memoryIds = linkedSource ? await sourceMemoryIds(tx, linkedSource) : [];
    if (outcome.sourceId && !outcome.duplicateOf)
      await completeSource(tx, outcome.sourceId, memoryIds.length);
    const chain = await chainDistill(tx, deps, actor, outcome, memoryIds);
    const warnings =
      chain.distill_skipped &&
      deps.config.INGEST_AUTO_DISTILL &&
      !outcome.duplicateOf &&
      memoryIds.length > 0
        ? [...outcome.warnings, `not distilled: ${chain.distill_skipped}`]
        : outcome.warnings;
    const result = {
      source_id: linkedSource,
      loader: outcome.loader,
      detected_type: outcome.detectedType,
      memory_count: outcome.duplicateOf ? 0 : memoryIds.length,
      warnings,
      ...chain,
      duplicate_of: outcome.duplicateOf ?? null,
      ...outcome.extra,
    };
    if (!(await settleJob(tx, actor.orgId, outcome.jobId, "succeeded", { result }))) return null;
    await recordAudit(tx, actor, {
      operation: "ingest",
      agentId: outcome.agentId,
      targetIds: [outcome.jobId, ...(chain.distill_job_id ? [chain.distill_job_id] : [])],
      detail: {
        phase: "completed",
        state: "succeeded",
        memories: result.memory_count,
        duplicate: Boolean(outcome.duplicateOf),
        distill_job_id: chain.distill_job_id,
      },
    });
    return result;
  });
  if (settled?.distill_job_id) await enqueueDistill(deps, actor.orgId, settled.distill_job_id);
  return settled ?? { job_id: outcome.jobId, state: "already-finished" };
}

export async function settleFailed(
  deps: Pick<Ports, "db">,
  actor: Actor,
  outcome: JobOutcome,
  reason: IngestFailureReason,
  message: string,
): Promise<Record<string, unknown>> {
  return withTenant(deps.db, actor.orgId, async (tx) => {
    const stored = outcome.sourceId ? (await sourceMemoryIds(tx, outcome.sourceId)).length : 0;
    const result = {
      reason,
      source_id: outcome.sourceId,
      loader: outcome.loader,
      detected_type: outcome.detectedType,
      memory_count: stored,
      warnings: outcome.warnings,
      distill_job_id: null,
      duplicate_of: null,
      ...outcome.extra,
    };
    if (
      !(await settleJob(tx, actor.orgId, outcome.jobId, "failed", {
        result,
        error: message,
      }))
    )
      return { job_id: outcome.jobId, state: "already-finished" };
    await recordAudit(tx, actor, {
      operation: "ingest",
      agentId: outcome.agentId,
      targetIds: [outcome.jobId],
      detail: { phase: "completed", state: "failed", reason, memories: stored },
    });
    return result;
  });
}
