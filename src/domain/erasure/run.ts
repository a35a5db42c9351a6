// svc.erase_subject's body: claim the job row, run bounded steps (each its own transaction) until
// the subject has nothing left, then finish. A redelivery or a restart after kill -9 resumes from
// the last committed step; a finished row is left as it is.
import type { Ports } from "../ports/ports";
import type { Subject } from "../../data/queries/erasure/memories";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { claimJob, readJob } from "../jobs/claim";
import { eraseNextChunk } from "./chunk";
import { finishErasure, type ErasureResult } from "./finish";
import { progressOf, type ErasurePayload } from "./progress";

export async function runErasureJob(
  deps: Pick<Ports, "db" | "forgetSigner">,
  orgId: string,
  jobId: string,
): Promise<ErasureResult | { state: string }> {
  const claimed = await withTenant(deps.db, orgId, (tx) => claimJob(tx, jobId));
  if (claimed === null || claimed.kind !== "erasure") return { state: "already-finished" };
  const payload = claimed.payload as ErasurePayload;
  const subject: Subject = payload.subject && "value" in payload.subject ? payload.subject : null;
  const actor: Actor = {
    orgId,
    keyId: payload.key_id,
    requestId: payload.request_id,
    role: "system",
  };
  for (;;) {
    const step = await withTenant(deps.db, orgId, async (tx) => {
      const row = await readJob(tx, jobId);
      if (!row || row.state !== "running") return null;
      const progress = progressOf(row.progress);
      const next = await eraseNextChunk(tx, actor, jobId, payload.agent_id, subject, progress);
      if (next.more) return { done: false as const };
      const result = await finishErasure(tx, deps, actor, jobId, payload, subject, progress);
      return { done: true as const, result };
    });
    if (step === null) return { state: "already-finished" };
    if (step.done) return step.result;
  }
}
