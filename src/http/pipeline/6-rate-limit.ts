// Layer 6, rate limit (RATE_LIMIT_ENABLED): a token bucket per API key and, for tenant keys, a
// second bucket per tenant shared by all its keys, so minting keys buys no throughput. Both are
// taken in one atomic step: a request either bucket refuses spends from neither. Every
// authenticated response carries X-RateLimit-Limit (RATE_LIMIT_REQUESTS), -Remaining (whole tokens
// left) and -Reset (epoch seconds when the bucket is full) of the key bucket; either bucket empty
// answers 429 with Retry-After.
import { Elysia } from "elysia";
import { rateLimited } from "../../lib/errors";
import type { Bucket, BucketPolicy, RateLimiter, TakeResult } from "../../domain/ratelimit/limiter";
import { tenantBucketKey } from "../../domain/ratelimit/tenant-policy";
import { contextOf, type Identity } from "../request-context";

export function bucketKeyOf(
  identity: { role: string; keyStart: string } & ({ keyId: string } | object),
): string {
  return "keyId" in identity ? String(identity.keyId) : `superadmin-${identity.keyStart}`;
}

export function rateHeaders(policy: BucketPolicy, result: TakeResult): Record<string, string> {
  return {
    "x-ratelimit-limit": String(policy.limit),
    "x-ratelimit-remaining": String(result.remaining),
    "x-ratelimit-reset": String(result.resetAt),
  };
}

/** The buckets one request takes a token from: the key's and, for tenant keys, the tenant's. */
export function requestBuckets(
  identity: Identity,
  policy: BucketPolicy,
  tenantPolicy: BucketPolicy,
): Bucket[] {
  const buckets: Bucket[] = [{ key: bucketKeyOf(identity), policy }];
  if (identity.role === "tenant")
    buckets.push({ key: tenantBucketKey(identity.orgId), policy: tenantPolicy });
  return buckets;
}

/** The key bucket's headers and, when refused, which bucket is empty and for how long. */
export function outcomeOfTake(policy: BucketPolicy, [own, tenant]: readonly TakeResult[]) {
  const headers = rateHeaders(policy, own!);
  if (own!.allowed) return { headers, refused: null };
  const refused = own!.blocking
    ? { retryAfter: own!.retryAfter, bucket: "api_key" as const }
    : { retryAfter: tenant!.retryAfter, bucket: "tenant" as const };
  return { headers, refused };
}

/**
 * One request's tokens, from the key's bucket and (tenant keys) the tenant's, in one atomic take.
 * Returns the key bucket's headers, and the 429 to throw when either bucket refused. Also used by
 * `svc mcp`.
 */
export async function takeRequestTokens(
  limiter: RateLimiter,
  identity: Identity,
  policy: BucketPolicy,
  tenantPolicy: BucketPolicy,
) {
  const results = await limiter.take(requestBuckets(identity, policy, tenantPolicy));
  const { headers, refused } = outcomeOfTake(policy, results);
  return {
    headers,
    refusal: refused && rateLimited(refused.retryAfter, headers, refused.bucket),
  };
}

export function rateLimitLayer(
  limiter: RateLimiter,
  policy: BucketPolicy,
  tenantPolicy: BucketPolicy,
) {
  return new Elysia({ name: "svc.rate-limit" }).onRequest(async ({ request }) => {
    const ctx = contextOf(request);
    if (!ctx?.identity) return;
    const { headers, refusal } = await takeRequestTokens(
      limiter,
      ctx.identity,
      policy,
      tenantPolicy,
    );
    ctx.rateHeaders = headers;
    if (refusal) throw refusal;
  });
}
