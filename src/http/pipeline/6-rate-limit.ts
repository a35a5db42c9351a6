// Layer 6, rate limit (RATE_LIMIT_ENABLED): a token bucket per API key and, for tenant keys, a second
// bucket per tenant shared by all its keys, so minting keys buys no throughput. The key bucket is taken
// first; the tenant bucket only when the key bucket allowed the request. Every authenticated response
// carries X-RateLimit-Limit (RATE_LIMIT_REQUESTS), -Remaining (whole tokens left) and -Reset (epoch
// seconds when the bucket is full) of the key bucket; either bucket empty answers 429 with Retry-After.
import { Elysia } from "elysia";
import { rateLimited } from "../../domain/errors";
import type { BucketPolicy, RateLimiter, TakeResult } from "../../domain/ratelimit/limiter";
import { tenantBucketKey } from "../../domain/ratelimit/tenant-policy";
import { contextOf } from "../request-context";

export function bucketKeyOf(identity: { role: string; keyStart: string } & ({ keyId: string } | object)): string {
  return "keyId" in identity ? String(identity.keyId) : `superadmin-${identity.keyStart}`;
}

export function rateHeaders(policy: BucketPolicy, result: TakeResult): Record<string, string> {
  return {
    "x-ratelimit-limit": String(policy.limit),
    "x-ratelimit-remaining": String(result.remaining),
    "x-ratelimit-reset": String(result.resetAt),
  };
}

export function rateLimitLayer(limiter: RateLimiter, policy: BucketPolicy, tenantPolicy: BucketPolicy) {
  return new Elysia({ name: "svc.rate-limit" }).onRequest(async ({ request }) => {
    const ctx = contextOf(request);
    if (!ctx?.identity) return;
    const result = await limiter.take(bucketKeyOf(ctx.identity), policy);
    ctx.rateHeaders = rateHeaders(policy, result);
    if (!result.allowed) throw rateLimited(result.retryAfter, ctx.rateHeaders);
    if (ctx.identity.role !== "tenant") return;
    const tenant = await limiter.take(tenantBucketKey(ctx.identity.orgId), tenantPolicy);
    if (!tenant.allowed) throw rateLimited(tenant.retryAfter, ctx.rateHeaders, "tenant");
  });
}
