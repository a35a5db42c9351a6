// Direct uploads nobody finalized: once the URL expired more than STORAGE_S3_FINALIZE_GRACE_SECONDS
// ago the job ends `failed` with upload-expired (by finalize, or by svc.ingest_watchdog for the
// abandoned ones) and whatever was uploaded is deleted, so the bucket does not keep orphans.
import type { Ports } from "../ports/ports";
import {
  failAbandonedUpload,
  findAbandonedUploads,
  type IngestJobRow,
} from "../../data/queries/ingest/jobs";
import type { Tx } from "../../data/pools";
import { withTenant } from "../../data/with-tenant";
import { systemActor, type Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { recordEvent } from "../webhooks/record-event";
import type { IngestPayload, StoredFileSource } from "./payload";

const ROWS_PER_RUN = 200;

/**
 * Fails one awaiting_upload job as expired, with its audit row and job.failed event, in the
 * caller's transaction.
 */
export async function failExpiredUpload(tx: Tx, actor: Actor, row: IngestJobRow): Promise<void> {
  const payload = row.payload as IngestPayload;
  const source = payload.source as StoredFileSource;
  const reason = `the upload URL expired at ${source.expires_at} and the job was not finalized in time`;
  if (!(await failAbandonedUpload(tx, row.job_id, reason))) return;
  await recordAudit(tx, actor, {
    operation: "ingest",
    agentId: payload.agent_id,
    targetIds: [row.job_id],
    detail: { phase: "failed", reason: "upload-expired" },
  });
  // Announced like every other failed job (domain/jobs/settle.ts), in the same transaction.
  await recordEvent(tx, row.org_id, "job.failed", {
    job_id: row.job_id,
    kind: "ingest",
    state: "failed",
    agent_id: payload.agent_id,
    error: reason,
  });
}

/** The objects of expired uploads; deleting a missing one is harmless. */
export async function deleteUploadObjects(
  deps: Pick<Ports, "storage" | "log">,
  rows: IngestJobRow[],
): Promise<void> {
  for (const row of rows) {
    const key = ((row.payload as IngestPayload).source as StoredFileSource).object_key;
    await deps.storage.delete(key).catch((error) =>
      deps.log.warn({
        msg: "could not delete an expired upload",
        key,
        err: (error as Error).message,
      }),
    );
  }
}

/** svc.ingest_watchdog's share: the tenant's abandoned direct uploads. */
export async function expireAbandonedUploads(
  deps: Pick<Ports, "db" | "config" | "storage" | "log">,
  orgId: string,
): Promise<number> {
  const expired = await withTenant(deps.db, orgId, async (tx) => {
    const rows = await findAbandonedUploads(
      tx,
      deps.config.STORAGE_S3_FINALIZE_GRACE_SECONDS,
      ROWS_PER_RUN,
    );
    for (const row of rows) await failExpiredUpload(tx, systemActor(orgId), row);
    return rows;
  });
  await deleteUploadObjects(deps, expired);
  return expired.length;
}
