// GET /v1/limits: the caller's rate-limit posture, read after this request's own tokens were taken:
// the key's bucket at the top level (as before), the tenant's bucket shared by all its keys under
// `tenant`.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { tenantBucketKey, tenantBucketPolicyOf } from "../../../domain/ratelimit/tenant-policy";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";

const Bucket = {
  limit: t.Integer({ description: "Requests per window" }),
  window_seconds: t.Integer(),
  burst: t.Integer({ description: "Bucket capacity" }),
  refill_per_second: t.Number(),
  remaining: t.Integer({ description: "Whole tokens left" }),
  reset: t.Integer({ description: "Unix epoch seconds when the bucket is full" }),
};

export const limitsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/limits",
    async ({ request }) => {
      const actor = actorOf(request);
      const policy = deps.bucketPolicy;
      const tenantPolicy = tenantBucketPolicyOf(deps.config);
      const [state, tenantState] = await Promise.all([
        deps.limiter.peek(actor.keyId!, policy),
        deps.limiter.peek(tenantBucketKey(actor.orgId), tenantPolicy),
      ]);
      return {
        enabled: deps.config.RATE_LIMIT_ENABLED,
        algorithm: "token_bucket" as const,
        scope: "api_key" as const,
        backend: deps.limiter.backend,
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
    },
    {
      response: {
        200: t.Object({
          enabled: t.Boolean(),
          algorithm: t.Literal("token_bucket"),
          scope: t.Literal("api_key", {
            description: "The top-level bucket fields describe the calling key's own bucket",
          }),
          backend: t.Union([t.Literal("valkey"), t.Literal("memory")]),
          ...Bucket,
          limit: t.Integer({ description: "RATE_LIMIT_REQUESTS per window" }),
          tenant: t.Object(
            {
              scope: t.Literal("tenant"),
              ...Bucket,
              limit: t.Integer({
                description:
                  "RATE_LIMIT_TENANT_REQUESTS per window, shared by all the tenant's keys",
              }),
              burst: t.Integer({ description: "RATE_LIMIT_TENANT_BURST" }),
            },
            {
              description:
                "The tenant's bucket, shared by all its keys; a request needs a token from both",
            },
          ),
        }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Account"],
        summary: "Rate-limit posture of the calling key and of its tenant",
      },
    },
  );
