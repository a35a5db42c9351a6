// Layer 4, body limit: a declared Content-Length over the cap is refused before anything is read; a
// chunked body is counted while it streams. multipart/form-data is accepted only on
// /v1/ingest/file, which enforces INGEST_MAX_FILE_BYTES itself.
import { Elysia } from "elysia";
import { AppError } from "../../lib/errors";
import { requestPath } from "./0-request-target";

export const MULTIPART_PATH = "/v1/ingest/file";
/** Multipart framing around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Invalid UTF-8 is refused, not silently replaced with U+FFFD and stored. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

const tooLarge = (limit: number) =>
  new AppError("payload-too-large", `The request body exceeds ${limit} bytes`);

async function readWithin(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  try {
    return STRICT_UTF8.decode(Buffer.concat(chunks));
  } catch {
    throw new AppError("malformed-request", "The request body is not valid UTF-8");
  }
}

function isJson(contentType: string): boolean {
  const base = contentType.split(";")[0]!.trim().toLowerCase();
  return base === "application/json" || base.endsWith("+json");
}

export function bodyLimitLayer(jsonLimit: number, fileLimit: number) {
  return (
    new Elysia({ name: "svc.body-limit" })
      .onRequest(({ request }) => {
        const declared = Number(request.headers.get("content-length") ?? 0);
        const path = requestPath(request);
        const limit = path === MULTIPART_PATH ? fileLimit + MULTIPART_OVERHEAD : jsonLimit;
        if (declared > limit) throw tooLarge(limit);
      })
      .onParse({ as: "global" }, async ({ request, contentType }) => {
        const path = requestPath(request);
        if (contentType.toLowerCase().startsWith("multipart/form-data")) {
          if (path === MULTIPART_PATH) return; // the default form-data parser takes over
          throw new AppError(
            "unsupported-media-type",
            "multipart/form-data is only accepted on /v1/ingest/file",
          );
        }
        const text = await readWithin(request, jsonLimit);
        if (text.trim() === "") return {};
        if (!isJson(contentType))
          throw new AppError(
            "unsupported-media-type",
            `Content-Type ${contentType || "(none)"} is not accepted; send application/json`,
          );
        try {
          return JSON.parse(text);
        } catch {
          throw new AppError("malformed-request", "The request body is not valid JSON");
        }
      })
      // An absent body is an empty object: optional-only bodies accept it, required fields are
      // named in the 422.
      .onTransform({ as: "global" }, (ctx) => {
        if (BODY_METHODS.has(ctx.request.method) && (ctx.body === undefined || ctx.body === null))
          ctx.body = {};
      })
  );
}
