// The loader port: one loader per format turns a source (an uploaded file, a fetched page, posted
// text) into chunks. The ingest pipeline stores each chunk as a memory with its position in
// metadata.
export type LoaderSource = {
  filename: string | null;
  /**
   * The type the client or server declared; loaders trust the bytes first (sniffing), this second.
   */
  declaredType: string | null;
  byteSize: number;
  bytes(): Promise<Uint8Array>;
  /** For loaders that stream (CSV, text): the source without buffering it whole. */
  stream(): ReadableStream<Uint8Array>;
};

export type ChunkPosition = {
  page?: number;
  heading_path?: string[];
  line_start?: number;
  line_end?: number;
  char_start?: number;
  char_end?: number;
  byte_start?: number;
  byte_end?: number;
  row_start?: number;
  row_end?: number;
  symbol?: string;
  language?: string;
};

export type Chunk = {
  text: string;
  position: ChunkPosition;
  /**
   * Extra metadata for the memory (e.g. {kind: "code", path, language, symbol} for CODE recall).
   */
  metadata?: Record<string, unknown>;
};

export type LoaderContext = {
  orgId: string;
  signal?: AbortSignal;
  /** Target chunk size in characters and overlap (INGEST_CHUNK_* configuration). */
  chunkChars: number;
  overlapChars: number;
  /** The memory content limit: nothing longer is ever emitted. */
  maxChunkChars: number;
  /** Code chunks may grow to this before a declaration is split into its members. */
  codeChunkChars: number;
  csvRowsPerChunk: number;
  maxPdfPages: number;
  maxDocxUncompressedBytes: number;
  /** Something the user should know (an odd encoding, a forced split); shown on the job. */
  warn(message: string): void;
  /** Multimodal loaders only: captions and transcripts through the (metered) LLM port. */
  media?: MediaReader;
};

/** What the image and audio loaders need from the LLM port. */
export type MediaReader = {
  describeImage(image: { bytes: Uint8Array; mimeType: string }): Promise<string>;
  transcribeAudio(audio: {
    bytes: Uint8Array;
    mimeType: string;
    filename: string;
  }): Promise<string>;
};

/** A file the loader cannot read: the job ends `failed` with this reason, never a 500. */
export class LoaderError extends Error {
  constructor(
    readonly reason:
      | "corrupt"
      | "encrypted"
      | "empty"
      | "unsupported"
      | "too-large"
      | "needs-multimodal",
    message: string,
  ) {
    super(message);
  }
}

export interface Loader {
  readonly id: string;
  readonly mimeTypes: readonly string[];
  readonly extensions: readonly string[];
  /** One line for GET /v1/ingest/loaders: what it reads and how it chunks. */
  readonly description: string;
  /**
   * Image and audio loaders: only with MULTIMODAL_ENABLED and an LLM provider that can read them.
   */
  readonly needsMultimodal: boolean;
  /** Recognises the format from its first bytes (and name); lying Content-Types are caught here. */
  sniff(head: Uint8Array, filename: string | null): boolean;
  /**
   * Loaders of several formats (images, audio): the exact type of these bytes; else mimeTypes[0].
   */
  typeOf?(head: Uint8Array): string;
  load(source: LoaderSource, ctx: LoaderContext): AsyncIterable<Chunk>;
}
