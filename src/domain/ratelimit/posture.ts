// The caller's rate-limit posture (GET /v1/limits), read after the request's own tokens were taken:
// the key's bucket at the top level, the tenant's bucket shared by all its keys under `tenant`.
import type { Config } from "../../config/schema";
import type { Actor } from "../actor";
import type { BucketPolicy, RateLimiter } from "./limiter";
import { tenantBucketKey, tenantBucketPolicyOf } from "./tenant-policy";

/** The limiter and the key bucket's policy are the edge's (src/operations/deps.ts), handed in per call. */
export type PostureSources = {
  limiter: RateLimiter;
  bucketPolicy: BucketPolicy;
  config: Config;
};

export async function readLimitPosture(sources: PostureSources, actor: Actor) {
  const { limiter, bucketPolicy: policy, config } = sources;
  const tenantPolicy = tenantBucketPolicyOf(config);
  const [state, tenantState] = await Promise.all([
    limiter.peek(actor.keyId!, policy),
    limiter.peek(tenantBucketKey(actor.orgId), tenantPolicy),
  ]);
  return {
    enabled: config.RATE_LIMIT_ENABLED,
    algorithm: "token_bucket" as const,
    scope: "api_key" as const,
    backend: limiter.backend,
    limit: policy.limit,
    window_seconds: policy.windowSeconds,
    burst: policy.capacity,
    refill_per_second: policy.refillPerSecond,
    remaining: state.remaining,
    reset: state.resetAt,
    tenant: {
      scope: "tenant" as const,
      limit: tenantPolicy.limit,
      window_seconds: tenantPolicy.windowSeconds,
      burst: tenantPolicy.capacity,
      refill_per_second: tenantPolicy.refillPerSecond,
      remaining: tenantState.remaining,
      reset: tenantState.resetAt,
    },
  };
}
