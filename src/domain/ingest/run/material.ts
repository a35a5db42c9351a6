// Turns a job's source into readable material: posted text as bytes, a URL fetched (SSRF-safe) into
// a scratch file, a stored upload opened as a local file; plus its size, SHA-256 and first bytes.
import type { Ports } from "../../ports/ports";
import { FetchFailed, FetchRefused, safeFetch } from "../../../lib/fetch/safe-fetch";
import type { LoaderSource } from "../formats/loader";
import { bytesSource, fileHead, fileSha256, fileSource } from "../formats/sources";
import { scratchFile, spoolDirOf } from "../formats/spool";
import { SNIFF_BYTES } from "../formats/sniff";
import { sha256Bytes } from "../../../lib/hash";
import { IngestFailure, type IngestSourceSpec } from "../payload";

export type Material = {
  source: LoaderSource;
  head: Uint8Array;
  byteSize: number;
  contentHash: Uint8Array;
  filename: string | null;
  declaredType: string | null;
  /** The URL that was read (after redirects), for url sources. */
  uri: string | null;
  release(): Promise<void>;
};

const filenameOfUrl = (url: string) =>
  decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || null;

export async function acquireMaterial(
  deps: Pick<Ports, "config" | "storage" | "urlPolicy">,
  spec: Exclude<IngestSourceSpec, { kind: "search" }>,
  signal: AbortSignal,
): Promise<Material> {
  if (spec.kind === "text") {
    const bytes = new TextEncoder().encode(spec.text);
    return {
      source: bytesSource(bytes, null, "text/plain"),
      head: bytes.subarray(0, SNIFF_BYTES),
      byteSize: bytes.byteLength,
      contentHash: sha256Bytes(bytes),
      filename: null,
      declaredType: "text/plain",
      uri: null,
      release: async () => {},
    };
  }
  const spool = spoolDirOf(deps.config);
  if (spec.kind === "url") {
    const scratch = scratchFile(spool, ".fetch");
    try {
      const { config } = deps;
      const fetched = await safeFetch(
        spec.url,
        deps.urlPolicy,
        {
          timeoutMs: config.INGEST_FETCH_TIMEOUT_MS,
          maxBytes: config.INGEST_FETCH_MAX_BYTES,
          maxRedirects: config.INGEST_FETCH_MAX_REDIRECTS,
        },
        scratch.path,
        signal,
      );
      const filename = filenameOfUrl(fetched.finalUrl);
      return {
        source: fileSource(scratch.path, fetched.byteSize, filename, fetched.contentType),
        head: await fileHead(scratch.path),
        byteSize: fetched.byteSize,
        contentHash: await fileSha256(scratch.path),
        filename,
        declaredType: fetched.contentType,
        uri: fetched.finalUrl,
        release: scratch.remove,
      };
    } catch (error) {
      await scratch.remove();
      if (error instanceof FetchRefused) throw new IngestFailure("fetch-refused", error.message);
      if (error instanceof FetchFailed)
        throw new IngestFailure(error.tooLarge ? "too-large" : "fetch-failed", error.message);
      throw error;
    }
  }
  const local = await deps.storage.openLocal(spec.object_key, spool).catch((error) => {
    throw (error as NodeJS.ErrnoException).code === "ENOENT"
      ? new IngestFailure("upload-missing", "the uploaded file is no longer in storage")
      : error;
  });
  if (!(await Bun.file(local.path).exists()))
    throw new IngestFailure("upload-missing", "the uploaded file is no longer in storage");
  const size = Bun.file(local.path).size;
  return {
    source: fileSource(local.path, size, spec.filename, spec.declared_type),
    head: await fileHead(local.path),
    byteSize: size,
    contentHash: await fileSha256(local.path),
    filename: spec.filename,
    declaredType: spec.declared_type,
    uri: null,
    release: local.release,
  };
}
