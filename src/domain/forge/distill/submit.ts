// POST /v1/distill: validate, create the job row (the source of truth) with its audit row, then
// wake the worker. A lost wake-up costs nothing: svc.ingest_watchdog re-enqueues a row left queued.
import type { Ports } from "../../ports/ports";
import { createJob } from "../../jobs/claim";
import { withTenant } from "../../../data/with-tenant";
import type { Actor } from "../../actor";
import { recordAudit } from "../../audit/record";
import { validationFailed, type FieldProblem } from "../../../lib/errors";
import { newId } from "../../../lib/ids";

export type DistillRequest = { agentId: string; memoryIds: string[] };

export type SubmitDeps = Pick<Ports, "db" | "config" | "queue" | "log">;

function check(config: Ports["config"], input: DistillRequest): string[] {
  const problems: FieldProblem[] = [];
  if (input.agentId.includes("\u0000"))
    problems.push({ path: "agent_id", message: "must not contain the NUL character (U+0000)" });
  const ids = [...new Set(input.memoryIds)];
  if (ids.length === 0)
    problems.push({ path: "memory_ids", message: "must name at least one memory" });
  if (ids.length > config.DISTILL_MAX_MEMORY_IDS)
    problems.push({
      path: "memory_ids",
      message: `must name at most ${config.DISTILL_MAX_MEMORY_IDS} distinct memories (DISTILL_MAX_MEMORY_IDS); split the request`,
    });
  if (ids.some((id) => id.includes("\u0000")))
    problems.push({ path: "memory_ids", message: "must not contain the NUL character (U+0000)" });
  if (problems.length > 0) throw validationFailed(problems);
  return ids;
}

export async function submitDistill(
  deps: SubmitDeps,
  actor: Actor,
  input: DistillRequest,
): Promise<{ job_id: string; state: "queued"; memory_count: number }> {
  const memoryIds = check(deps.config, input);
  const jobId = newId("job");
  await withTenant(deps.db, actor.orgId, async (tx) => {
    await createJob(tx, actor.orgId, jobId, "distill", {
      agent_id: input.agentId,
      memory_ids: memoryIds,
    });
    await recordAudit(tx, actor, {
      operation: "distill",
      agentId: input.agentId,
      targetIds: [jobId],
      detail: { phase: "queued", job_id: jobId, memory_count: memoryIds.length },
    });
  });
  try {
    await deps.queue.enqueue(
      "svc.forge_distill",
      { org_id: actor.orgId, job_id: jobId },
      { jobId: `distill-${jobId}` },
    );
  } catch (error) {
    deps.log.warn({
      msg: "distill job created but its wake-up could not be enqueued; the watchdog will re-enqueue it",
      job_id: jobId,
      err: (error as Error).message,
    });
  }
  return { job_id: jobId, state: "queued", memory_count: memoryIds.length };
}
