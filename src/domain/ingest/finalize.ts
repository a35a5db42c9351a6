// POST /v1/ingest/finalize/{job_id}: the client says its direct upload is done. The object must
// exist, hold exactly the announced number of bytes (at most INGEST_MAX_FILE_BYTES) and be a format
// a loader reads (sniffed from its first bytes); then the job is queued and runs the same pipeline
// as POST /v1/ingest/file. A refused object is deleted and the job keeps waiting, so the client can
// PUT again while the URL works. Finalizing a job that already left awaiting_upload returns it
// unchanged.
import type { Ports } from "../ports/ports";
import { findIngestJob, queueUploadedJob, type IngestJobRow } from "../../data/queries/ingest/jobs";
import { withTenant } from "../../data/with-tenant";
import { SNIFF_BYTES } from "./formats/sniff";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { AppError, conflict, gone, notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";
import type { IngestPayload, StoredFileSource } from "./payload";
import { deleteUploadObjects, failExpiredUpload } from "./expire-uploads";
import { detect } from "./submit-file";
import { enqueueIngest, submittedView } from "./submit";

/** Storage failures are the service's dependency being down, not a bug: 503, nothing changed. */
async function storageCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("service-unavailable", `object storage could not ${what}; retry later`);
  }
}

async function refuse(deps: Pick<Ports, "storage">, key: string, error: AppError): Promise<never> {
  await deps.storage.delete(key).catch(() => {});
  throw error;
}

export async function finalizeUpload(
  deps: Pick<Ports, "db" | "queue" | "log" | "config" | "storage" | "llm">,
  actor: Actor,
  jobId: string,
) {
  if (!looksLikeId("job", jobId)) throw notFound("Upload job");
  const row = await withTenant(deps.db, actor.orgId, (tx) => findIngestJob(tx, jobId));
  const payload = row?.payload as IngestPayload | undefined;
  if (!row || payload?.source.kind !== "upload") throw notFound("Upload job");
  const source = payload.source as StoredFileSource;
  if (row.state !== "awaiting_upload") {
    if (
      row.state === "failed" &&
      (row.result as { reason?: string } | null)?.reason === "upload-expired"
    ) {
      throw gone(`the upload window of job ${jobId} closed; request a new upload URL`);
    }
    return submittedView(row);
  }

  const deadline =
    Date.parse(source.expires_at!) + deps.config.STORAGE_S3_FINALIZE_GRACE_SECONDS * 1000;
  if (Date.now() > deadline) {
    await withTenant(deps.db, actor.orgId, (tx) => failExpiredUpload(tx, actor, row));
    await deleteUploadObjects(deps, [row]);
    throw gone(`the upload URL of job ${jobId} expired at ${source.expires_at}; request a new one`);
  }

  const stored = await storageCall("be read", () => deps.storage.stat(source.object_key));
  if (!stored) {
    throw conflict(
      `nothing was uploaded for job ${jobId} yet: PUT the file to its upload URL (before ${source.expires_at}), then finalize`,
    );
  }
  const max = deps.config.INGEST_MAX_FILE_BYTES;
  if (stored.size > max) {
    await refuse(
      deps,
      source.object_key,
      new AppError(
        "payload-too-large",
        `the uploaded object has ${stored.size} bytes, more than INGEST_MAX_FILE_BYTES (${max}); it was deleted`,
        { fields: { max_bytes: max } },
      ),
    );
  }
  if (stored.size !== source.byte_size) {
    await refuse(
      deps,
      source.object_key,
      new AppError(
        "conflict",
        `the uploaded object has ${stored.size} bytes but ${source.byte_size} were announced; it was deleted, PUT the complete file again (before ${source.expires_at})`,
        {
          fields: { declared_size: source.byte_size, uploaded_size: stored.size },
        },
      ),
    );
  }
  const head = await storageCall("be read", () =>
    deps.storage.head(source.object_key, SNIFF_BYTES),
  );
  let detection;
  try {
    detection = detect(deps, {
      head,
      filename: source.filename,
      declaredType: source.declared_type,
    });
  } catch (error) {
    return refuse(deps, source.object_key, error as AppError);
  }

  const next: IngestPayload = {
    ...payload,
    source: { ...source, detected_type: detection.detectedType, loader: detection.loader.id },
    warnings: [...payload.warnings, ...detection.warnings],
  };
  const { queued, current } = await withTenant(deps.db, actor.orgId, async (tx) => {
    const queued = await queueUploadedJob(tx, jobId, next);
    if (queued) {
      await recordAudit(tx, actor, {
        operation: "ingest",
        agentId: payload.agent_id,
        targetIds: [jobId],
        detail: {
          phase: "finalized",
          byte_size: stored.size,
          detected_type: detection.detectedType,
        },
      });
    }
    return { queued, current: (await findIngestJob(tx, jobId)) as IngestJobRow };
  });
  if (queued) await enqueueIngest(deps, actor.orgId, jobId);
  return submittedView(current);
}
