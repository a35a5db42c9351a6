// Receiving a multipart/form-data upload with busboy while it streams: the one file goes straight
// to a scratch file (its first bytes kept for sniffing), and the upload stops the moment it passes
// the size cap, so nothing larger than INGEST_MAX_FILE_BYTES is ever held or written.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { SNIFF_BYTES } from "./sniff";
import { scratchFile, type ScratchFile } from "./spool";

export type ReceivedFile = {
  field: string;
  scratch: ScratchFile;
  filename: string | null;
  declaredType: string | null;
  byteSize: number;
  head: Uint8Array;
};
export type ReceivedForm = {
  fields: Map<string, string>;
  files: ReceivedFile[];
  problems: Array<{ path: string; message: string }>;
};

/** Why a multipart body could not be received; the caller maps it to a problem. */
export class MultipartError extends Error {
  constructor(
    readonly kind: "too-large" | "malformed",
    message: string,
  ) {
    super(message);
  }
}

export type MultipartLimits = {
  maxFileBytes: number;
  maxFields: number;
  maxFieldBytes: number;
  maxFiles: number;
};

export async function receiveMultipart(
  request: Request,
  limits: MultipartLimits,
  spoolDir: string,
): Promise<ReceivedForm> {
  const contentType = request.headers.get("content-type") ?? "";
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: limits.maxFields,
        fieldSize: limits.maxFieldBytes,
        parts: limits.maxFields + limits.maxFiles,
      },
    });
  } catch (error) {
    throw new MultipartError(
      "malformed",
      `the multipart body cannot be read: ${(error as Error).message}`,
    );
  }
  const form: ReceivedForm = { fields: new Map(), files: [], problems: [] };
  const writes: Array<Promise<void>> = [];
  const outputs: Array<ReturnType<typeof createWriteStream>> = [];
  const input = request.body
    ? Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>)
    : Readable.from([]);

  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: MultipartError) => {
      input.unpipe(parser);
      input.destroy();
      for (const out of outputs) out.destroy();
      reject(error);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated)
        form.problems.push({
          path: `/${name}`,
          message: `must be at most ${limits.maxFieldBytes} bytes`,
        });
      else if (form.fields.has(name))
        form.problems.push({ path: `/${name}`, message: "is given more than once" });
      else form.fields.set(name, value);
    });
    parser.on("file", (name, stream, info) => {
      const scratch = scratchFile(spoolDir, ".upload");
      const received: ReceivedFile = {
        field: name,
        scratch,
        filename: info.filename?.slice(-255) ?? null,
        declaredType: info.mimeType ?? null,
        byteSize: 0,
        head: new Uint8Array(0),
      };
      form.files.push(received);
      const headParts: Uint8Array[] = [];
      let headBytes = 0;
      const out = createWriteStream(scratch.path);
      outputs.push(out);
      stream.on("data", (bytes: Buffer) => {
        received.byteSize += bytes.byteLength;
        if (headBytes < SNIFF_BYTES) {
          headParts.push(bytes.subarray(0, SNIFF_BYTES - headBytes));
          headBytes += Math.min(bytes.byteLength, SNIFF_BYTES - headBytes);
        }
      });
      stream.on("limit", () =>
        fail(
          new MultipartError(
            "too-large",
            `the file exceeds INGEST_MAX_FILE_BYTES (${limits.maxFileBytes} bytes)`,
          ),
        ),
      );
      writes.push(
        new Promise<void>((ok, ko) => {
          // "close" follows "finish", and also a destroy after the size cap was hit.
          out.on("close", () => {
            received.head = new Uint8Array(Buffer.concat(headParts));
            ok();
          });
          out.on("error", ko);
        }),
      );
      stream.pipe(out);
    });
    parser.on("filesLimit", () =>
      form.problems.push({ path: "/file", message: `at most ${limits.maxFiles} file may be sent` }),
    );
    parser.on("fieldsLimit", () =>
      form.problems.push({ path: "/", message: `at most ${limits.maxFields} fields may be sent` }),
    );
    parser.on("partsLimit", () => form.problems.push({ path: "/", message: "too many parts" }));
    parser.on("error", (error) =>
      fail(
        new MultipartError(
          "malformed",
          `the multipart body cannot be read: ${(error as Error).message}`,
        ),
      ),
    );
    input.on("error", (error) =>
      fail(new MultipartError("malformed", `the upload was interrupted: ${error.message}`)),
    );
    parser.on("close", resolve);
  });
  input.pipe(parser);
  try {
    await done;
    await Promise.all(writes);
    return form;
  } catch (error) {
    await Promise.allSettled(writes);
    await Promise.all(form.files.map((f) => f.scratch.remove()));
    throw error;
  }
}
