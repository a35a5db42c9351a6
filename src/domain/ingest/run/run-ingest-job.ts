// The ingest pipeline for one job row (svc.ingest_run): claim the row, read the source, pick a
// loader by its bytes, claim the document (dedupe by content hash), store its chunks as memories
// (resuming after whatever an earlier, killed run stored), then settle the row and chain distill.
// Any failure that is the document's fault ends the job `failed` with a reason; anything else is
// retried by the queue.
import type { Ports } from "../../ports/ports";
import {
  adoptSource,
  claimSource,
  countStoredChunks,
  type SourceRow,
} from "../../../data/queries/ingest/sources";
import { findIngestJob, type IngestJobRow } from "../../../data/queries/ingest/jobs";
import { withTenant } from "../../../data/with-tenant";
import { LoaderError, type LoaderContext } from "../formats/loader";
import { loaderById, detectLoader, type Detection } from "../formats/registry";
import { textLoader } from "../formats/loaders/text";
import type { Actor } from "../../actor";
import { requireLiveDatasets } from "../../datasets/require-live";
import { AppError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { scheduleStatisticsRefresh } from "../../statistics/refresh-after-bulk-write";
import { IngestFailure, type IngestPayload, type IngestSourceSpec } from "../payload";
import { ChunkWriter, LostOwnership } from "./chunk-writer";
import { discoverBatch } from "./discover";
import { claimJob } from "../../jobs/claim";
import { startHeartbeat, type Heartbeat } from "../../jobs/heartbeat";
import { mediaAvailable } from "../loaders";
import { acquireMaterial, type Material } from "./material";
import { mediaReader } from "./media-reader";
import { settleFailed, settleSucceeded, type JobOutcome } from "./settle";

/** What an ingest run reaches: the source (fetch, storage, web search), the models, the rows. */
export type IngestRunPorts = Pick<
  Ports,
  "db" | "config" | "log" | "queue" | "storage" | "urlPolicy" | "embeddings" | "llm" | "websearch"
>;

const MAX_WARNINGS = 20;

export async function runIngestJob(
  deps: IngestRunPorts,
  orgId: string,
  jobId: string,
): Promise<Record<string, unknown>> {
  const claimed = (await withTenant(deps.db, orgId, (tx) =>
    claimJob(tx, jobId),
  )) as IngestJobRow | null;
  if (!claimed) return { job_id: jobId, state: "already-finished" };
  if (claimed.kind !== "ingest")
    throw new Error(`job ${jobId} is a ${claimed.kind} job, not an ingest job`);
  const payload = claimed.payload as IngestPayload;
  const actor: Actor = {
    orgId,
    keyId: payload.key_id,
    requestId: payload.request_id,
    role: "system",
  };
  const outcome: JobOutcome = {
    jobId,
    agentId: payload.agent_id,
    sourceId: null,
    loader: null,
    detectedType: null,
    warnings: [...payload.warnings],
  };
  const heartbeat = startHeartbeat(deps, orgId, jobId);
  try {
    if (payload.source.kind === "search")
      return await discoverBatch(deps, actor, jobId, payload, heartbeat);
    return await ingestDocument(deps, actor, payload, payload.source, outcome, heartbeat);
  } catch (error) {
    if (error instanceof IngestFailure || error instanceof LoaderError)
      return settleFailed(deps, actor, outcome, error.reason, error.message);
    if (error instanceof LostOwnership || heartbeat.signal.aborted)
      return { job_id: jobId, state: "abandoned", reason: (error as Error).message };
    throw error;
  } finally {
    heartbeat.stop();
  }
}

function chooseLoader(
  spec: Exclude<IngestSourceSpec, { kind: "search" }>,
  material: Material,
): Detection {
  if (spec.kind === "text") return { loader: textLoader, detectedType: "text/plain", warnings: [] };
  const detected = detectLoader(material.head, material.filename, material.declaredType);
  if (!detected)
    throw new IngestFailure(
      "unsupported",
      `the content (${material.declaredType ?? "no declared type"}) is not a format any loader reads; GET /v1/ingest/loaders lists them`,
    );
  // Files were sniffed at submission (their warnings are in the payload); keep that choice if it
  // still holds.
  if (
    (spec.kind === "file" || spec.kind === "upload") &&
    spec.loader &&
    loaderById(spec.loader) === detected.loader
  )
    return { ...detected, warnings: [] };
  return detected;
}

type Claim = { row: SourceRow; duplicate: boolean; inProgress: boolean };

async function claimDocument(
  deps: IngestRunPorts,
  actor: Actor,
  payload: IngestPayload,
  jobId: string,
  material: Material,
  loaderId: string,
  kind: SourceRow["kind"],
): Promise<Claim> {
  return withTenant(deps.db, actor.orgId, async (tx) => {
    if (payload.dataset_id) {
      await requireLiveDatasets(tx, [{ datasetId: payload.dataset_id, path: "dataset_id" }]).catch(
        (error) => {
          throw error instanceof AppError
            ? new IngestFailure(
                "dataset-deleted",
                "the dataset was deleted before the document was read",
              )
            : error;
        },
      );
    }
    const { row, created } = await claimSource(tx, {
      org_id: actor.orgId,
      source_id: newId("src"),
      job_id: jobId,
      agent_id: payload.agent_id,
      dataset_id: payload.dataset_id,
      kind,
      uri: material.uri,
      filename: material.filename,
      mime_type: material.declaredType,
      loader: loaderId,
      byte_size: material.byteSize,
      content_hash: material.contentHash,
    });
    if (created || row.job_id === jobId) return { row, duplicate: false, inProgress: false };
    if (row.completed_at) return { row, duplicate: true, inProgress: false };
    const owner = await findIngestJob(tx, row.job_id);
    if (owner && (owner.state === "queued" || owner.state === "running"))
      return { row, duplicate: true, inProgress: true };
    // The job that started this document failed or was abandoned: this one finishes it.
    await adoptSource(tx, row.source_id, jobId);
    return { row: { ...row, job_id: jobId }, duplicate: false, inProgress: false };
  });
}

async function ingestDocument(
  deps: IngestRunPorts,
  actor: Actor,
  payload: IngestPayload,
  spec: Exclude<IngestSourceSpec, { kind: "search" }>,
  outcome: JobOutcome,
  heartbeat: Heartbeat,
) {
  const { config } = deps;
  const warn = (message: string) => {
    if (!outcome.warnings.includes(message) && outcome.warnings.length < MAX_WARNINGS)
      outcome.warnings.push(message);
  };
  heartbeat.progress = { stage: spec.kind === "url" ? "fetching" : "reading" };
  await heartbeat.beat();
  const material = await acquireMaterial(deps, spec, heartbeat.signal);
  try {
    const detection = chooseLoader(spec, material);
    detection.warnings.forEach(warn);
    outcome.loader = detection.loader.id;
    outcome.detectedType = detection.detectedType;
    outcome.extra = {
      byte_size: material.byteSize,
      ...(material.uri ? { url: material.uri } : {}),
      ...(material.filename ? { filename: material.filename } : {}),
    };
    const media =
      detection.loader.needsMultimodal && mediaAvailable(deps)
        ? mediaReader(deps, actor.orgId, material.filename)
        : undefined;
    if (detection.loader.needsMultimodal && !media) {
      throw new IngestFailure(
        "needs-multimodal",
        `${detection.detectedType} needs MULTIMODAL_ENABLED=true and an LLM provider (LLM_API_KEY) to caption or transcribe it`,
      );
    }

    const claim = await claimDocument(
      deps,
      actor,
      payload,
      outcome.jobId,
      material,
      detection.loader.id,
      spec.kind,
    );
    if (claim.duplicate) {
      warn(
        claim.inProgress
          ? `identical content is being ingested into this dataset right now by job ${claim.row.job_id}; nothing new was stored`
          : `identical content was already ingested into this dataset by job ${claim.row.job_id}; nothing new was stored`,
      );
      return await settleSucceeded(deps, actor, {
        ...outcome,
        duplicateOf: { source_id: claim.row.source_id, job_id: claim.row.job_id },
      });
    }
    outcome.sourceId = claim.row.source_id;

    const resumeAt = await withTenant(deps.db, actor.orgId, (tx) =>
      countStoredChunks(tx, claim.row.source_id),
    );
    if (resumeAt > 0) warn(`resumed after ${resumeAt} chunks stored by an earlier attempt`);
    heartbeat.progress = {
      stage: "chunking",
      chunks_stored: resumeAt,
      byte_size: material.byteSize,
    };
    const writer = new ChunkWriter({
      deps,
      actor,
      jobId: outcome.jobId,
      sourceId: claim.row.source_id,
      agentId: payload.agent_id,
      datasetId: payload.dataset_id,
      heartbeat,
      resumeAt,
      baseMetadata: {
        source: material.uri ?? material.filename ?? "text",
        source_kind: spec.kind,
        source_id: claim.row.source_id,
        ingest_job_id: outcome.jobId,
        loader: detection.loader.id,
      },
    });
    const ctx: LoaderContext = {
      orgId: actor.orgId,
      signal: heartbeat.signal,
      chunkChars: config.INGEST_CHUNK_CHARS,
      overlapChars: config.INGEST_CHUNK_OVERLAP_CHARS,
      maxChunkChars: config.MEMORY_CONTENT_MAX_CHARS,
      codeChunkChars: Math.min(config.INGEST_CODE_CHUNK_CHARS, config.MEMORY_CONTENT_MAX_CHARS),
      csvRowsPerChunk: config.INGEST_CSV_ROWS_PER_CHUNK,
      maxPdfPages: config.INGEST_PDF_MAX_PAGES,
      maxDocxUncompressedBytes: config.INGEST_DOCX_MAX_UNCOMPRESSED_BYTES,
      warn,
      media,
    };
    let index = 0;
    for await (const chunk of detection.loader.load(material.source, ctx)) {
      if (index >= config.INGEST_MAX_CHUNKS_PER_SOURCE) {
        await writer.flush();
        throw new IngestFailure(
          "too-large",
          `the document yields more than INGEST_MAX_CHUNKS_PER_SOURCE (${config.INGEST_MAX_CHUNKS_PER_SOURCE}) chunks; the first ones were stored`,
        );
      }
      await writer.add(index++, chunk);
    }
    await writer.flush();
    await scheduleStatisticsRefresh(deps, actor.orgId, "memory", writer.stored - resumeAt);
    if (index === 0)
      throw new IngestFailure(
        "empty",
        `no text could be extracted from the ${detection.detectedType} content${detection.loader.id === "pdf" ? " (a scanned PDF needs OCR)" : ""}`,
      );
    outcome.extra = { ...outcome.extra, chunk_count: index };
    const settled = await settleSucceeded(deps, actor, outcome);
    await dropStoredFile(deps, spec);
    return settled;
  } catch (error) {
    if (error instanceof IngestFailure || error instanceof LoaderError)
      await dropStoredFile(deps, spec);
    throw error;
  } finally {
    await material.release();
  }
}

/** A stored upload is only needed until its job ends for good. */
async function dropStoredFile(
  deps: Pick<Ports, "storage" | "log">,
  spec: IngestSourceSpec,
): Promise<void> {
  if (spec.kind !== "file" && spec.kind !== "upload") return;
  await deps.storage.delete(spec.object_key).catch((error) =>
    deps.log.warn({
      msg: "could not delete an ingested upload",
      key: spec.object_key,
      err: (error as Error).message,
    }),
  );
}
