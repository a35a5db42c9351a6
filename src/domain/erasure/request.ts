// POST /v1/erasures: writes the erasure job row (the source of truth a client polls) and its audit
// row in one transaction, then wakes a worker. The subject's value is audited only as a digest.
import type { Ports } from "../ports/ports";
import { createJob } from "../jobs/claim";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { sha256Hex } from "../../lib/hash";
import { newId } from "../../lib/ids";
import type { ErasurePayload } from "./progress";

export type ErasureInput = { agent_id: string; subject?: { key: string; value: string } };

export type QueuedErasure = {
  erasure_id: string;
  state: "queued";
  agent_id: string;
  created_at: Date;
};

export const enqueueErasure = (deps: Pick<Ports, "queue">, orgId: string, jobId: string) =>
  // If this enqueue is lost, svc.ingest_watchdog finds the queued row and enqueues it again.
  deps.queue.enqueue(
    "svc.erase_subject",
    { org_id: orgId, job_id: jobId },
    { jobId: `erasure-${jobId}` },
  );

export async function requestErasure(
  deps: Pick<Ports, "db" | "log" | "queue">,
  actor: Actor,
  input: ErasureInput,
): Promise<QueuedErasure> {
  const payload: ErasurePayload = {
    agent_id: input.agent_id,
    subject: input.subject ? { key: input.subject.key, value: input.subject.value } : null,
    key_id: actor.keyId,
    request_id: actor.requestId,
  };
  const jobId = newId("job");
  const row = await withTenant(deps.db, actor.orgId, async (tx) => {
    const inserted = await createJob(tx, actor.orgId, jobId, "erasure", payload);
    await recordAudit(tx, actor, {
      operation: "erasure",
      agentId: input.agent_id,
      targetIds: [jobId],
      detail: {
        phase: "requested",
        subject_key: input.subject?.key ?? null,
        subject_value_sha256: input.subject ? sha256Hex(input.subject.value) : null,
      },
    });
    return inserted;
  });
  try {
    await enqueueErasure(deps, actor.orgId, jobId);
  } catch (error) {
    // The row is committed; the watchdog re-enqueues queued rows, so the erasure is late, not lost.
    deps.log.warn({
      msg: "erasure enqueue failed; the watchdog will enqueue the job",
      job_id: jobId,
      err: (error as Error).message,
    });
  }
  return {
    erasure_id: jobId,
    state: "queued",
    agent_id: input.agent_id,
    created_at: row.created_at,
  };
}
