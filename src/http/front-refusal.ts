// The refusal before the pipeline (issue 23): a request whose bucket this process already knows to
// be empty (the limiter's memory, spent-memory.ts) is answered in the Bun fetch handler, before
// Elysia's chain runs. A flood of refused requests (a client address out of failed authentications,
// a key or tenant out of tokens) then costs a header read, a hash and a map lookup each, rather than
// the chain, an error object and a log line; it is counted in
// svc_http_refused_before_pipeline_total instead. The answer is the chain's own 429: problem body,
// Retry-After from the bucket's next token, X-RateLimit-* for a key. Requests the memory cannot
// decide (nothing remembered, a key not verified yet, a public path) go through the chain as before.
// A client address's refusal is held a moment first (refusal-hold.ts).
import { bytesToHex } from "@noble/hashes/utils.js";
import { hasKeyShape, hashKey } from "../domain/keys/format";
import { addressBucketKey, addressBucketPolicyOf } from "../domain/ratelimit/address-throttle";
import { tenantBucketPolicyOf } from "../domain/ratelimit/tenant-policy";
import { ERROR_CATALOG } from "../lib/error-catalog";
import { type RateLimitBucket, rateLimitedDetail } from "../lib/errors";
import type { Deps } from "../operations/deps";
import { UNKNOWN_ADDRESS } from "./client-address";
import { requestPath } from "./pipeline/0-request-target";
import { corsAnswerHeaders } from "./pipeline/1-cors";
import { isPublicPath, presentedKey, SUPERADMIN_PATH } from "./pipeline/5-authenticate";
import { outcomeOfTake, requestBuckets } from "./pipeline/6-rate-limit";
import { createRefusalHold } from "./refusal-hold";
import type { Identity } from "./request-context";

export type FrontRefusal = (
  request: Request,
  address: string,
  requestId: string,
) => Response | Promise<Response> | null;

/** The tenant key a request presents, when this process has verified it recently; else null. */
function verifiedIdentity(deps: Deps, headers: Headers): Identity | null {
  let key: string | null;
  try {
    key = presentedKey(headers);
  } catch {
    return null; // a malformed Authorization header is a failed authentication
  }
  if (key === null || !hasKeyShape(key)) return null;
  const identity = deps.keyCache.get(bytesToHex(hashKey(key)));
  return identity && { role: "tenant", ...identity };
}

export function frontRefusal(deps: Deps, typeBase: string): FrontRefusal {
  const { config, limiter } = deps;
  if (!config.RATE_LIMIT_ENABLED) return () => null;
  const tenantPolicy = tenantBucketPolicyOf(config);
  const addressPolicy = addressBucketPolicyOf(config);
  const superadminRoutes = deps.gates.superadmin;
  const { title, status } = ERROR_CATALOG["rate-limited"];
  const refused = deps.metrics.refusedBeforePipeline;
  const cors = corsAnswerHeaders(config.SVC_CORS_ORIGINS);
  const hold = createRefusalHold();

  const answer = (
    request: Request,
    requestId: string,
    refusal: { retryAfter: number; bucket: RateLimitBucket },
    rateHeaders: Record<string, string>,
  ) => {
    refused.inc({ bucket: refusal.bucket });
    const body = JSON.stringify({
      type: `${typeBase}/errors/rate-limited`,
      title,
      status,
      detail: rateLimitedDetail(refusal.retryAfter, refusal.bucket),
      instance: requestPath(request),
      request_id: requestId,
      bucket: refusal.bucket,
    });
    return new Response(body, {
      status,
      headers: {
        "content-type": "application/problem+json",
        ...cors(request.headers.get("origin")),
        ...rateHeaders,
        "retry-after": String(refusal.retryAfter),
        "x-request-id": requestId,
      },
    });
  };

  return (request, address, requestId) => {
    if (limiter.isEmpty() || request.method === "OPTIONS") return null;
    const path = requestPath(request);
    if (isPublicPath(path)) return null;
    // On the superadmin routes the address is checked before any key (5-authenticate.ts).
    const identity =
      superadminRoutes && SUPERADMIN_PATH.test(path)
        ? null
        : verifiedIdentity(deps, request.headers);
    if (identity) {
      const buckets = requestBuckets(identity, deps.bucketPolicy, tenantPolicy);
      const known = limiter.refusalNow(buckets);
      if (!known) return null;
      const { headers, refused } = outcomeOfTake(deps.bucketPolicy, known);
      return refused && answer(request, requestId, refused, headers);
    }
    if (address === UNKNOWN_ADDRESS) return null; // not throttled (5-authenticate.ts)
    const known = limiter.refusalNow([{ key: addressBucketKey(address), policy: addressPolicy }]);
    if (!known) return null;
    const retryAfter = Math.max(1, Math.ceil(known[0]!.msUntilToken / 1000));
    return hold(address, retryAfter, () =>
      answer(request, requestId, { retryAfter, bucket: "client_address" }, {}),
    );
  };
}
