// Ingest: chunk sizes, URL fetching (SSRF policy, caps), loader limits, object storage, web search
// and the multimodal models. Gates (INGEST_ENABLED, STORAGE_BACKEND, WEBSEARCH_API_KEY…) live in
// gates.ts.
import { Type as T } from "@sinclair/typebox";

export const ingestSection = {
  INGEST_CHUNK_CHARS: T.Integer({
    default: 1200,
    minimum: 200,
    maximum: 32768,
    description:
      "Target size of a prose chunk (text, Markdown, PDF, DOCX, HTML), in characters; a chunk ends at a paragraph, sentence or word boundary, never inside a word",
  }),
  INGEST_CHUNK_OVERLAP_CHARS: T.Integer({
    default: 150,
    minimum: 0,
    maximum: 4000,
    description:
      "Up to this many characters (whole sentences, else whole words) of a prose chunk are repeated at the start of the next one",
  }),
  INGEST_CODE_CHUNK_CHARS: T.Integer({
    default: 4000,
    minimum: 200,
    maximum: 32768,
    description:
      "Largest code chunk before a declaration is split into its members; a single function or method is never split below this",
  }),
  INGEST_CSV_ROWS_PER_CHUNK: T.Integer({
    default: 25,
    minimum: 1,
    maximum: 10000,
    description:
      "Most CSV rows in one memory (a chunk also ends at INGEST_CHUNK_CHARS); every chunk repeats the header line",
  }),
  INGEST_MAX_CHUNKS_PER_SOURCE: T.Integer({
    default: 100000,
    minimum: 1,
    description:
      "A document that yields more chunks fails with reason too-large (chunks stored so far stay)",
  }),
  INGEST_PDF_MAX_PAGES: T.Integer({
    default: 2000,
    minimum: 1,
    description: "A PDF with more pages fails with reason too-large",
  }),
  INGEST_DOCX_MAX_UNCOMPRESSED_BYTES: T.Integer({
    default: 104857600,
    minimum: 1024,
    description:
      "Zip-bomb guard: a DOCX whose entries unpack to more than this (100 MiB), or any entry above 200:1, fails before it is unpacked",
  }),
  INGEST_FETCH_TIMEOUT_MS: T.Integer({
    default: 20000,
    minimum: 100,
    maximum: 600000,
    description: "Total time for fetching one URL, redirects included",
  }),
  INGEST_FETCH_MAX_BYTES: T.Integer({
    default: 10485760,
    minimum: 1,
    description: "Largest fetched response body (10 MiB); larger pages fail with reason too-large",
  }),
  INGEST_FETCH_MAX_REDIRECTS: T.Integer({
    default: 5,
    minimum: 0,
    maximum: 20,
    description: "Redirects followed per URL; every hop is checked again",
  }),
  INGEST_FETCH_ALLOW_CIDRS: T.Optional(
    T.String({
      description:
        "Comma-separated addresses or CIDR ranges that URL ingest may reach although they are private, loopback, link-local or metadata addresses (e.g. 10.0.0.0/8,127.0.0.1)",
    }),
  ),
  INGEST_SPOOL_DIR: T.Optional(
    T.String({
      minLength: 1,
      description:
        "Local scratch directory for uploads and fetched pages while they are read (default: the OS temp dir)",
    }),
  ),
  STORAGE_FS_DIR: T.Optional(
    T.String({
      minLength: 1,
      description:
        "STORAGE_BACKEND=fs: where uploaded files wait for the worker (default SVC_DATA_DIR/uploads); API and workers must share it",
    }),
  ),
  STORAGE_S3_BUCKET: T.Optional(
    T.String({
      minLength: 3,
      maxLength: 63,
      description: "STORAGE_BACKEND=s3: bucket for uploads",
    }),
  ),
  STORAGE_S3_ENDPOINT: T.Optional(
    T.String({
      pattern: "^https?://",
      description: "STORAGE_BACKEND=s3: endpoint URL (unset: AWS S3 for STORAGE_S3_REGION)",
    }),
  ),
  STORAGE_S3_REGION: T.String({
    default: "us-east-1",
    minLength: 1,
    description: "STORAGE_BACKEND=s3: region used for signing",
  }),
  STORAGE_S3_ACCESS_KEY_ID: T.Optional(
    T.String({ minLength: 1, description: "STORAGE_BACKEND=s3: access key id" }),
  ),
  STORAGE_S3_SECRET_ACCESS_KEY: T.Optional(
    T.String({ minLength: 1, description: "STORAGE_BACKEND=s3: secret access key" }),
  ),
  STORAGE_S3_UPLOAD_EXPIRES_SECONDS: T.Integer({
    default: 900,
    minimum: 1,
    maximum: 604800,
    description: "Lifetime of a presigned upload URL",
  }),
  STORAGE_S3_FINALIZE_GRACE_SECONDS: T.Integer({
    default: 600,
    minimum: 0,
    maximum: 86400,
    description:
      "STORAGE_BACKEND=s3: how long after its upload URL expired a job can still be finalized (a PUT started in time may end later); afterwards finalize answers 410 and the job fails with upload-expired",
  }),
  WEBSEARCH_BASE_URL: T.String({
    default: "https://api.search.brave.com/res/v1",
    pattern: "^https?://",
    description: "Brave Search API base; /web/search is appended",
  }),
  WEBSEARCH_TIMEOUT_MS: T.Integer({
    default: 10000,
    minimum: 100,
    description: "Timeout of one web-search request",
  }),
  LLM_VISION_MODEL: T.Optional(
    T.String({
      minLength: 1,
      description: "Model that captions images (MULTIMODAL_ENABLED); default LLM_MODEL",
    }),
  ),
  LLM_TRANSCRIPTION_MODEL: T.String({
    default: "whisper-1",
    minLength: 1,
    description: "Model for /v1/audio/transcriptions (MULTIMODAL_ENABLED)",
  }),
};
