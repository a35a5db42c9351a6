// SSRF-safe URL fetching for ingest. Each hop: http(s) only, the host resolved once, every resolved
// address checked against the policy, and the connection pinned to the checked address (no second
// DNS lookup between check and connect); TLS still verifies the certificate against the host name.
// Redirects are followed manually (each target checked the same way) up to a cap; the whole fetch
// has one deadline; the body is streamed to a file and cut off past the byte cap.
import { createWriteStream } from "node:fs";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import zlib from "node:zlib";
import { literalAddress, type AddressPolicy } from "./address-policy";

export type FetchLimits = { timeoutMs: number; maxBytes: number; maxRedirects: number };
export type Fetched = {
  finalUrl: string;
  contentType: string | null;
  byteSize: number;
  redirects: number;
};

/** The URL may not be fetched (scheme, address, credentials): never retried. */
export class FetchRefused extends Error {}
/** The fetch failed (DNS, connection, HTTP status, timeout) or the body is too large. */
export class FetchFailed extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

const USER_AGENT = "svc-ingest/0.20 (+https://github.com/svc)";

export async function resolveChecked(
  hostname: string,
  policy: AddressPolicy,
): Promise<{ address: string; family: 4 | 6 }> {
  const literal = literalAddress(hostname);
  let answers: Array<{ address: string; family: number }>;
  if (literal) answers = [{ address: literal, family: literal.includes(":") ? 6 : 4 }];
  else {
    try {
      answers = await dnsLookup(hostname, { all: true, verbatim: true });
    } catch (error) {
      throw new FetchFailed(
        `could not resolve ${hostname}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  if (answers.length === 0) throw new FetchFailed(`${hostname} has no address`);
  // Every answer must pass: a name that also resolves to a private address is refused outright.
  for (const answer of answers) {
    const verdict = policy.check(answer.address);
    if (!verdict.allowed)
      throw new FetchRefused(
        `${hostname} resolves to a refused address: ${verdict.reason} (allow it with INGEST_FETCH_ALLOW_CIDRS)`,
      );
  }
  return { address: answers[0]!.address, family: answers[0]!.family === 6 ? 6 : 4 };
}

export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

function request(
  url: URL,
  pin: { address: string; family: 4 | 6 },
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      {
        protocol: url.protocol,
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        lookup: pinnedLookup(pin.address, pin.family),
        servername: literalAddress(url.hostname) ? undefined : url.hostname,
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/html,text/plain,text/markdown,application/pdf,*/*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
      },
      resolve,
    );
    const onAbort = () =>
      req.destroy(new FetchFailed("the fetch took longer than INGEST_FETCH_TIMEOUT_MS"));
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) =>
      reject(
        error instanceof FetchFailed
          ? error
          : new FetchFailed(`could not fetch ${url.host}: ${error.message}`),
      ),
    );
    req.on("close", () => signal.removeEventListener("abort", onAbort));
    req.end();
  });
}

function decoderFor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? "identity").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    case "identity":
    case "":
      return null;
    default:
      throw new FetchFailed(`unsupported content-encoding ${encoding}`);
  }
}

/** Counts decoded bytes and fails the stream past the cap. */
function byteCap(maxBytes: number, seen: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen.bytes += chunk.length;
      if (seen.bytes > maxBytes)
        done(
          new FetchFailed(
            `the response is larger than INGEST_FETCH_MAX_BYTES (${maxBytes} bytes)`,
            true,
          ),
        );
      else done(null, chunk);
    },
  });
}

export async function safeFetch(
  rawUrl: string,
  policy: AddressPolicy,
  limits: FetchLimits,
  targetPath: string,
  outer?: AbortSignal,
): Promise<Fetched> {
  const signal = outer
    ? AbortSignal.any([outer, AbortSignal.timeout(limits.timeoutMs)])
    : AbortSignal.timeout(limits.timeoutMs);
  let url = new URL(rawUrl);
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new FetchRefused(`scheme ${url.protocol} is not allowed`);
    if (url.username || url.password)
      throw new FetchRefused("URLs with credentials are not fetched");
    const pin = await resolveChecked(url.hostname.replace(/^\[|\]$/g, ""), policy);
    if (signal.aborted) throw new FetchFailed("the fetch took longer than INGEST_FETCH_TIMEOUT_MS");
    const response = await request(url, pin, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (redirects >= limits.maxRedirects)
        throw new FetchFailed(
          `more than INGEST_FETCH_MAX_REDIRECTS (${limits.maxRedirects}) redirects`,
        );
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FetchFailed(`${url.host} answered HTTP ${status}`);
    }
    const declared = Number(response.headers["content-length"] ?? 0);
    if (declared > limits.maxBytes && !response.headers["content-encoding"]) {
      response.destroy();
      throw new FetchFailed(
        `the response is larger than INGEST_FETCH_MAX_BYTES (${limits.maxBytes} bytes)`,
        true,
      );
    }
    const seen = { bytes: 0 };
    const decoder = decoderFor(response.headers["content-encoding"]);
    try {
      if (decoder)
        await pipeline(
          response,
          decoder,
          byteCap(limits.maxBytes, seen),
          createWriteStream(targetPath),
          { signal },
        );
      else
        await pipeline(response, byteCap(limits.maxBytes, seen), createWriteStream(targetPath), {
          signal,
        });
    } catch (error) {
      if (error instanceof FetchFailed) throw error;
      if (signal.aborted)
        throw new FetchFailed("the fetch took longer than INGEST_FETCH_TIMEOUT_MS");
      throw new FetchFailed(`reading ${url.host} failed: ${(error as Error).message}`);
    }
    const contentType = response.headers["content-type"];
    return {
      finalUrl: url.toString(),
      contentType: typeof contentType === "string" ? contentType : null,
      byteSize: seen.bytes,
      redirects,
    };
  }
}
