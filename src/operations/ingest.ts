// Ingest operations (INGEST_ENABLED): text or a URL (also the MCP tool ingest), an uploaded file,
// the loaders, polling a job; web-search batches (and WEBSEARCH_API_KEY); direct uploads to S3
// (and STORAGE_BACKEND=s3).
import { t } from "elysia";
import { finalizeUpload } from "../domain/ingest/finalize";
import { listLoaders } from "../domain/ingest/loaders";
import { readSearchBatch } from "../domain/ingest/search-view";
import { submitSearch } from "../domain/ingest/search-submit";
import { submittedView, submitTextOrUrl } from "../domain/ingest/submit";
import { submitFile } from "../domain/ingest/submit-file";
import { createUploadUrl } from "../domain/ingest/upload-url";
import { readIngestJob } from "../domain/ingest/view";
import { type Operation, read, write } from "./operation";
import {
  IngestBody,
  IngestFileRequestBody,
  IngestJob,
  JobParams,
  LoaderInfo,
  SubmittedJob,
} from "./schemas/ingest";
import { BatchParams, SearchBatch, SearchBody, SubmittedBatch } from "./schemas/ingest-search";
import { UploadTicket, UploadUrlBody } from "./schemas/ingest-upload";

const ingest = { gate: "ingest" } as const;
const search = { gate: "ingestSearch" } as const;
const upload = { gate: "ingestUploadUrl" } as const;
const tags = ["Ingest"];

export const INGEST_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/ingest", "forge:write", "ingest", {
    ...ingest,
    mcp: "ingest",
    handler: {
      input: { from: "body", schema: IngestBody },
      status: 202,
      output: SubmittedJob,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Ingest text or a URL",
        description:
          "Give exactly one of `text` or `url`. The worker chunks the content into memories of " +
          "`agent_id` (in `dataset_id` when given); poll status_url. URLs are fetched " +
          "SSRF-safely: http(s) only, private, loopback, link-local and metadata addresses " +
          "refused unless INGEST_FETCH_ALLOW_CIDRS lists them, redirects re-checked. " +
          "Re-ingesting identical content for the same agent and dataset stores nothing new.",
      },
      run: async ({ deps, actor }, body) => submittedView(await submitTextOrUrl(deps, actor, body)),
    },
  }),
  read("/v1/ingest/loaders", "memories:read", {
    ...ingest,
    handler: {
      input: null,
      output: t.Object({ loaders: t.Array(LoaderInfo) }, { additionalProperties: false }),
      errors: [],
      docs: {
        tags,
        summary: "List the loaders",
        description:
          "Formats are recognised from the bytes; the MIME types and extensions listed here " +
          "only choose among text formats.",
      },
      run: ({ deps }) => listLoaders(deps),
    },
  }),
  read("/v1/ingest/:job_id", "memories:read", {
    ...ingest,
    handler: {
      input: null,
      params: JobParams,
      output: IngestJob,
      errors: [404],
      docs: {
        tags,
        summary: "Poll an ingest job",
        description:
          "State, progress, the memories created, warnings, the failure reason and the chained " +
          "distill job.",
      },
      run: ({ deps, actor }, _, params) => readIngestJob(deps.db, actor, params.job_id),
    },
  }),
  // The domain streams the multipart body through busboy, enforcing INGEST_MAX_FILE_BYTES.
  write("POST", "/v1/ingest/file", "forge:write", "ingest", {
    ...ingest,
    handler: {
      input: null,
      rawBody: { openapi: IngestFileRequestBody },
      status: 202,
      output: SubmittedJob,
      errors: [400, 404, 413, 415],
      docs: {
        tags,
        summary: "Ingest an uploaded file",
        description:
          "multipart/form-data with `agent_id`, optional `dataset_id` and one `file` (at most " +
          "INGEST_MAX_FILE_BYTES, enforced while the upload streams: 413). The format is " +
          "recognised from the bytes, whatever the declared type says (a contradiction becomes " +
          "a warning); content no loader reads is refused with 415. Corrupt, encrypted or " +
          "text-less documents end the job `failed` with failure_reason corrupt, encrypted or " +
          "empty.",
      },
      run: async ({ deps, actor }, request) =>
        submittedView(await submitFile(deps, actor, request)),
    },
  }),
  write("POST", "/v1/ingest/search", "forge:write", "ingest", {
    ...search,
    handler: {
      input: { from: "body", schema: () => SearchBody },
      status: 202,
      output: SubmittedBatch,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Ingest web-search results",
        description:
          "Asks the web-search provider (Brave Search API) for `query`, then ingests each of " +
          "the first `max_results` result URLs as its own URL ingest job of `agent_id` (in " +
          "`dataset_id` when given), fetched SSRF-safely like POST /v1/ingest: a result on a " +
          "private address fails that job only. Poll status_url.",
      },
      run: ({ deps, actor }, body) => submitSearch(deps, actor, body),
    },
  }),
  read("/v1/ingest/search/:batch_id", "memories:read", {
    ...search,
    handler: {
      input: null,
      params: BatchParams,
      output: SearchBatch,
      errors: [404],
      docs: {
        tags,
        summary: "Poll a web-search batch",
        description:
          "The batch's state, and each result URL with its child ingest job's state, failure " +
          "reason and memory count.",
      },
      run: ({ deps, actor }, _, params) => readSearchBatch(deps.db, actor, params.batch_id),
    },
  }),
  // The job waits in awaiting_upload until POST /v1/ingest/finalize/{job_id}.
  write("POST", "/v1/ingest/upload-url", "forge:write", "ingest", {
    ...upload,
    handler: {
      input: { from: "body", schema: UploadUrlBody },
      status: 201,
      output: UploadTicket,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Get a presigned URL for a direct upload",
        description:
          "Announce a file (`agent_id`, optional `dataset_id`, `filename`, `content_type`, " +
          "exact `size` ≤ INGEST_MAX_FILE_BYTES). The answer holds the job (state " +
          "`awaiting_upload`) and `upload`: PUT the raw bytes to `upload.url` with " +
          "`upload.headers` before `upload.expires_at` (STORAGE_S3_UPLOAD_EXPIRES_SECONDS), " +
          "then POST `finalize_url`.",
      },
      run: ({ deps, actor }, body) => createUploadUrl(deps, actor, body),
    },
  }),
  // Checks the uploaded object and queues the job.
  write("POST", "/v1/ingest/finalize/:job_id", "forge:write", "ingest", {
    ...upload,
    handler: {
      input: null,
      params: JobParams,
      status: 202,
      output: SubmittedJob,
      errors: [404, 409, 410, 413, 415],
      docs: {
        tags,
        summary: "Finalize a direct upload",
        description:
          "The object must exist (else 409, the job keeps waiting), hold exactly the announced " +
          "size (else 409) and at most INGEST_MAX_FILE_BYTES (else 413), and be a format a " +
          "loader reads, recognised from its bytes (else 415); a refused object is deleted and " +
          "may be uploaded again while the URL works. Then the job is queued (202) and runs " +
          "like POST /v1/ingest/file. After the URL expired plus " +
          "STORAGE_S3_FINALIZE_GRACE_SECONDS: 410, the job fails with upload-expired. " +
          "Finalizing a job that was already finalized returns it unchanged.",
      },
      run: ({ deps, actor }, _, params) => finalizeUpload(deps, actor, params.job_id),
    },
  }),
];
