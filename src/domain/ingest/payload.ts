// What an ingest job row carries (jobs.payload): who asked, where the result goes, and the source
// to read. The row is the source of truth; the queue message only names it.
export type TextSource = { kind: "text"; text: string };
export type UrlSource = { kind: "url"; url: string };
/**
 * A file waiting in object storage: uploaded through POST /v1/ingest/file, or directly (upload).
 */
export type StoredFileSource = {
  kind: "file" | "upload";
  object_key: string;
  filename: string | null;
  declared_type: string | null;
  byte_size: number | null;
  /** Set by submission (file) or finalize (upload) from the first bytes. */
  detected_type: string | null;
  loader: string | null;
  /** upload only: when the presigned URL stops working. */
  expires_at?: string;
};
export type SearchSource = { kind: "search"; query: string; max_results: number };
export type IngestSourceSpec = TextSource | UrlSource | StoredFileSource | SearchSource;

export type IngestPayload = {
  agent_id: string;
  dataset_id: string | null;
  source: IngestSourceSpec;
  /** The submitting key and request, so audit rows written by the worker point back at them. */
  key_id: string | null;
  request_id: string | null;
  /** Found at submission (e.g. a declared type the bytes contradict). */
  warnings: string[];
  /** Web-search children: the batch, their rank and the result's title. */
  batch_id?: string;
  rank?: number;
  title?: string;
};

export type IngestFailureReason =
  | "corrupt"
  | "encrypted"
  | "empty"
  | "unsupported"
  | "too-large"
  | "needs-multimodal"
  | "fetch-refused"
  | "fetch-failed"
  | "budget-exceeded"
  | "dataset-deleted"
  | "upload-missing"
  | "search-failed";

/** A document this job cannot ingest: the job ends `failed` with this reason, never retried. */
export class IngestFailure extends Error {
  constructor(
    readonly reason: IngestFailureReason,
    message: string,
  ) {
    super(message);
  }
}
