// POST /v1/ingest/upload-url (STORAGE_BACKEND=s3): the client announces a file; the service creates
// the job in state awaiting_upload and hands back a presigned PUT URL for a key it chose. The bytes
// go straight to the bucket; POST /v1/ingest/finalize/{job_id} then checks them and queues the job.
import type { Ports } from "../ports/ports";
import type { IngestJobRow } from "../../data/queries/ingest/jobs";
import { withTenant } from "../../data/with-tenant";
import { objectKey } from "../../providers/storage/port";
import type { Actor } from "../actor";
import { AppError, validationFailed, type FieldProblem } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { nulProblems } from "../../lib/nul-free";
import type { StoredFileSource } from "./payload";
import { insertJobWithAudit, submittedView } from "./submit";

export type UploadUrlRequest = {
  agent_id: string;
  dataset_id?: string;
  filename: string;
  content_type?: string;
  size: number;
};

// type/subtype with optional parameters; no control characters (the value becomes a header).
const CONTENT_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;[\x20-\x7e]*)?$/;

function checkRequest(input: UploadUrlRequest): FieldProblem[] {
  const problems = nulProblems(input, "");
  if (problems.length > 0) return problems;
  if (input.agent_id.trim() === "")
    problems.push({ path: "/agent_id", message: "must not be blank" });
  if (input.filename.trim() === "")
    problems.push({ path: "/filename", message: "must not be blank" });
  if (input.content_type !== undefined && !CONTENT_TYPE.test(input.content_type))
    problems.push({
      path: "/content_type",
      message: "must be a media type such as application/pdf",
    });
  return problems;
}

export async function createUploadUrl(
  deps: Pick<Ports, "db" | "config" | "storage">,
  actor: Actor,
  input: UploadUrlRequest,
) {
  const problems = checkRequest(input);
  if (problems.length > 0) throw validationFailed(problems);
  const max = deps.config.INGEST_MAX_FILE_BYTES;
  if (input.size > max) {
    throw new AppError(
      "payload-too-large",
      `size ${input.size} exceeds INGEST_MAX_FILE_BYTES (${max} bytes)`,
      { fields: { max_bytes: max } },
    );
  }
  if (!deps.storage.presignPut)
    throw new Error("STORAGE_BACKEND=s3 is configured but the storage cannot presign");
  const expiresIn = deps.config.STORAGE_S3_UPLOAD_EXPIRES_SECONDS;
  const jobId = newId("job");
  const key = objectKey(actor.orgId, jobId, input.filename);
  // Signed before the row commits, so the expiry the client sees is never earlier than the URL's
  // own.
  const url = deps.storage.presignPut(key, { expiresInSeconds: expiresIn });
  const expiresAt = new Date(Date.now() + expiresIn * 1000).toISOString();
  const source: StoredFileSource = {
    kind: "upload",
    object_key: key,
    filename: input.filename,
    declared_type: input.content_type ?? null,
    byte_size: input.size,
    detected_type: null,
    loader: null,
    expires_at: expiresAt,
  };
  const row: IngestJobRow = await withTenant(deps.db, actor.orgId, (tx) =>
    insertJobWithAudit(tx, actor, {
      jobId,
      agentId: input.agent_id,
      datasetId: input.dataset_id ?? null,
      source,
      state: "awaiting_upload",
    }),
  );
  return {
    ...submittedView(row),
    upload: {
      method: "PUT" as const,
      url,
      headers: input.content_type ? { "content-type": input.content_type } : {},
      expires_at: expiresAt,
      max_bytes: input.size,
    },
    finalize_url: `/v1/ingest/finalize/${row.job_id}`,
  };
}
