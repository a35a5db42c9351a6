// The rate-limit posture (GET /v1/limits): the calling key's bucket, and its tenant's under
// `tenant`.
import { t } from "elysia";

const Bucket = {
  limit: t.Integer({ description: "Requests per window" }),
  window_seconds: t.Integer(),
  burst: t.Integer({ description: "Bucket capacity" }),
  refill_per_second: t.Number(),
  remaining: t.Integer({ description: "Whole tokens left" }),
  reset: t.Integer({ description: "Unix epoch seconds when the bucket is full" }),
};

export const LimitsPosture = t.Object({
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
        description: "RATE_LIMIT_TENANT_REQUESTS per window, shared by all the tenant's keys",
      }),
      burst: t.Integer({ description: "RATE_LIMIT_TENANT_BURST" }),
    },
    {
      description: "The tenant's bucket, shared by all its keys; a request needs a token from both",
    },
  ),
});
