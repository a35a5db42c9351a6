// A real S3-compatible server for the direct-upload tests (s3rver on loopback, in its own temp
// dir), and a SigV4 query-signature verifier: s3rver accepts any X-Amz-Signature, so the tests
// recompute the signature of every presigned URL from its query with the known secret and compare.
import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export const S3_ACCESS_KEY_ID = "S3RVER";
// s3rver ignores signatures, so the secret is ours to choose: distinct, so a leak would be visible.
export const S3_SECRET = "svc-test-secret-Zq8v2Lr5Nw";
export const S3_BUCKET = "svc-uploads";
export const S3_REGION = "us-east-1";

export type S3TestServer = {
  endpoint: string;
  config: Record<string, unknown>;
  client: Bun.S3Client;
  close(): Promise<void>;
};

export async function startS3Server(): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), "svc-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    config: {
      STORAGE_BACKEND: "s3",
      STORAGE_S3_BUCKET: S3_BUCKET,
      STORAGE_S3_ENDPOINT: endpoint,
      STORAGE_S3_REGION: S3_REGION,
      STORAGE_S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
      STORAGE_S3_SECRET_ACCESS_KEY: S3_SECRET,
    },
    client: new Bun.S3Client({
      bucket: S3_BUCKET,
      endpoint,
      region: S3_REGION,
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET,
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// RFC 3986 unreserved characters stay; everything else is %XX (SigV4's UriEncode).
const uriEncode = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const sha256Hex = (data: string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) =>
  createHmac("sha256", key).update(data).digest();

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** Verifies a presigned (query-signed) SigV4 URL the way S3 does, for `method`, at time `now`. */
export function verifyPresignedUrl(
  rawUrl: string,
  options: { method: string; secret: string; region: string; now?: Date },
): SignatureCheck {
  const url = new URL(rawUrl);
  const q = url.searchParams;
  const need = [
    "X-Amz-Algorithm",
    "X-Amz-Credential",
    "X-Amz-Date",
    "X-Amz-Expires",
    "X-Amz-SignedHeaders",
    "X-Amz-Signature",
  ];
  const missing = need.filter((name) => !q.has(name));
  if (missing.length > 0) return { ok: false, reason: `missing ${missing.join(", ")}` };
  if (q.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256")
    return { ok: false, reason: "algorithm is not AWS4-HMAC-SHA256" };
  const amzDate = q.get("X-Amz-Date")!;
  const [, day, region, service, terminator] = q.get("X-Amz-Credential")!.split("/");
  if (
    !day ||
    region !== options.region ||
    service !== "s3" ||
    terminator !== "aws4_request" ||
    !amzDate.startsWith(day)
  ) {
    return { ok: false, reason: `credential scope ${q.get("X-Amz-Credential")} does not match` };
  }
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const expiresAt = signedAt + Number(q.get("X-Amz-Expires")) * 1000;
  if ((options.now ?? new Date()).getTime() > expiresAt)
    return { ok: false, reason: `expired at ${new Date(expiresAt).toISOString()}` };

  const signedHeaders = q.get("X-Amz-SignedHeaders")!.split(";");
  const headerValues: Record<string, string> = { host: url.host };
  const unknown = signedHeaders.filter((h) => !(h in headerValues));
  if (unknown.length > 0)
    return {
      ok: false,
      reason: `signed headers ${unknown.join(", ")} are not known to the verifier`,
    };
  const canonicalQuery = [...q.entries()]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalRequest = [
    options.method,
    url.pathname,
    canonicalQuery,
    signedHeaders.map((h) => `${h}:${headerValues[h]}\n`).join(""),
    signedHeaders.join(";"),
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${options.secret}`, day), region), "s3"),
    "aws4_request",
  );
  const expected = createHmac("sha256", signingKey).update(stringToSign).digest("hex");
  return expected === q.get("X-Amz-Signature")
    ? { ok: true }
    : { ok: false, reason: "signature does not match" };
}
