// GET /v1/erasures/{erasure_id}: the erasure's state, counts per row class so far, and when it is
// done, the certificate id (GET /v1/forget/{cert_id} returns the document).
import type { Database } from "../../data/pools";
import { readJob } from "../jobs/claim";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";
import { progressOf, type ErasurePayload } from "./progress";

export async function getErasureStatus(db: Database, actor: Actor, erasureId: string) {
  if (!looksLikeId("job", erasureId)) throw notFound(`Erasure ${erasureId}`);
  // The primary: a client polling the erasure it just requested must see it.
  const job = await withTenant(db, actor.orgId, (tx) => readJob(tx, erasureId));
  if (!job || job.kind !== "erasure") throw notFound(`Erasure ${erasureId}`);
  const payload = job.payload as ErasurePayload;
  const result = job.result as { counts?: Record<string, number>; cert_id?: string | null } | null;
  return {
    erasure_id: job.job_id,
    state: job.state as "queued" | "running" | "succeeded" | "failed",
    agent_id: payload.agent_id,
    subject_key: payload.subject?.key ?? null,
    counts: result?.counts ?? progressOf(job.progress).counts,
    cert_id: result?.cert_id ?? null,
    error: job.error,
    created_at: job.created_at,
    finished_at: job.finished_at,
  };
}
