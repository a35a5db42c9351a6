// POST /v1/ingest/file: the multipart upload is received while it streams (size cap enforced on the
// way), recognised from its bytes, moved into object storage and queued as a job. Anything wrong
// with the request is a 4xx problem and leaves nothing behind: no job row, no stored object, no
// scratch file.
import type { Ports } from "../ports/ports";
import {
  MultipartError,
  receiveMultipart,
  type ReceivedFile,
  type ReceivedForm,
} from "./formats/multipart";
import { detectLoader, type Detection } from "./formats/registry";
import { baseType } from "./formats/sniff";
import { spoolDirOf } from "./formats/spool";
import { objectKey } from "../../providers/storage/port";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { AppError, validationFailed, type FieldProblem } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { IngestJobRow } from "../../data/queries/ingest/jobs";
import type { StoredFileSource } from "./payload";
import { mediaAvailable } from "./loaders";
import { enqueueIngest, insertJobWithAudit } from "./submit";

const FIELDS = new Set(["agent_id", "dataset_id"]);
const LIMITS = { maxFields: 4, maxFieldBytes: 1024, maxFiles: 1 };

function checkForm(form: ReceivedForm): FieldProblem[] {
  const problems = [...form.problems];
  for (const [name, value] of form.fields) {
    if (!FIELDS.has(name))
      problems.push({
        path: `/${name}`,
        message: "is not an accepted field (agent_id, dataset_id, file)",
      });
    else if (value.includes("\u0000"))
      problems.push({ path: `/${name}`, message: "must not contain NUL characters" });
  }
  const agentId = form.fields.get("agent_id");
  if (agentId === undefined) problems.push({ path: "/agent_id", message: "is required" });
  else if (agentId.trim() === "" || agentId.length > 256)
    problems.push({ path: "/agent_id", message: "must be 1 to 256 characters, not blank" });
  const datasetId = form.fields.get("dataset_id");
  if (datasetId !== undefined && (datasetId.length < 1 || datasetId.length > 64))
    problems.push({ path: "/dataset_id", message: "must be 1 to 64 characters" });
  for (const file of form.files)
    if (file.field !== "file")
      problems.push({
        path: `/${file.field}`,
        message: "is not an accepted file field; send the file as `file`",
      });
  const file = form.files.find((f) => f.field === "file");
  if (!file)
    problems.push({ path: "/file", message: "is required (a multipart file part named file)" });
  else if (file.byteSize === 0) problems.push({ path: "/file", message: "is empty" });
  return problems;
}

/**
 * The loader for the uploaded bytes, or the 4xx that says why none applies (also used by finalize).
 */
export function detect(
  deps: Pick<Ports, "config" | "llm">,
  file: Pick<ReceivedFile, "head" | "filename" | "declaredType">,
): Detection {
  const detected = detectLoader(file.head, file.filename, file.declaredType);
  if (!detected) {
    throw new AppError(
      "unsupported-media-type",
      `the file's content (declared ${baseType(file.declaredType) || "without a type"}) is not a format any loader reads; GET /v1/ingest/loaders lists them`,
    );
  }
  if (detected.loader.needsMultimodal && !mediaAvailable(deps)) {
    throw new AppError(
      "unsupported-media-type",
      deps.config.MULTIMODAL_ENABLED
        ? `the file is ${detected.detectedType}, but the LLM provider cannot caption images or transcribe audio; configure an OpenAI-compatible provider (LLM_API_KEY)`
        : `the file is ${detected.detectedType}; images and audio are ingested only with MULTIMODAL_ENABLED=true and an LLM provider`,
    );
  }
  return detected;
}

export async function submitFile(
  deps: Pick<Ports, "db" | "queue" | "log" | "config" | "storage" | "llm">,
  actor: Actor,
  request: Request,
): Promise<IngestJobRow> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError(
      "unsupported-media-type",
      `Content-Type ${contentType || "(none)"} is not accepted; send multipart/form-data with agent_id, dataset_id and file`,
    );
  }
  const form = await receiveMultipart(
    request,
    { ...LIMITS, maxFileBytes: deps.config.INGEST_MAX_FILE_BYTES },
    spoolDirOf(deps.config),
  ).catch((error) => {
    if (error instanceof MultipartError)
      throw new AppError(
        error.kind === "too-large" ? "payload-too-large" : "malformed-request",
        error.message,
      );
    throw error;
  });
  let key: string | null = null;
  try {
    const problems = checkForm(form);
    if (problems.length > 0) throw validationFailed(problems);
    const file = form.files.find((f) => f.field === "file")!;
    const detection = detect(deps, file);
    const jobId = newId("job");
    key = objectKey(actor.orgId, jobId, file.filename);
    await deps.storage.putFile(key, file.scratch.path, detection.detectedType).catch(() => {
      // An unreachable bucket is the dependency being down: 503, nothing kept.
      throw new AppError(
        "service-unavailable",
        "object storage could not store the upload; retry later",
      );
    });
    const source: StoredFileSource = {
      kind: "file",
      object_key: key,
      filename: file.filename,
      declared_type: file.declaredType,
      byte_size: file.byteSize,
      detected_type: detection.detectedType,
      loader: detection.loader.id,
    };
    const row = await withTenant(deps.db, actor.orgId, (tx) =>
      insertJobWithAudit(tx, actor, {
        jobId,
        agentId: form.fields.get("agent_id")!,
        datasetId: form.fields.get("dataset_id") ?? null,
        source,
        warnings: detection.warnings,
      }),
    );
    key = null;
    await enqueueIngest(deps, actor.orgId, row.job_id);
    return row;
  } finally {
    if (key) await deps.storage.delete(key).catch(() => {});
    await Promise.all(form.files.map((f) => f.scratch.remove()));
  }
}
