// GET /v1/limits: the caller's rate-limit posture, read after this request's own token was taken.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../schemas/common";

export const limitsRoute = (deps: Deps) => new Elysia().get("/v1/limits", async ({ request }) => {
  const actor = actorOf(request);
  const policy = deps.bucketPolicy;
  const state = await deps.limiter.peek(actor.keyId!, policy);
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
  };
}, {
  response: {
    200: t.Object({
      enabled: t.Boolean(),
      algorithm: t.Literal("token_bucket"),
      scope: t.Literal("api_key"),
      backend: t.Union([t.Literal("valkey"), t.Literal("memory")]),
      limit: t.Integer({ description: "RATE_LIMIT_REQUESTS per window" }),
      window_seconds: t.Integer(),
      burst: t.Integer({ description: "Bucket capacity" }),
      refill_per_second: t.Number(),
      remaining: t.Integer({ description: "Whole tokens left" }),
      reset: t.Integer({ description: "Unix epoch seconds when the bucket is full" }),
    }),
    ...authedErrors(),
  },
  detail: { tags: ["Account"], summary: "Rate-limit posture of the calling key" },
});
