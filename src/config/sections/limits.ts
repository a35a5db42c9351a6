// Rate limit, budgets, intervals and size caps.
import { Type as T } from "@sinclair/typebox";

export const limitsSection = {
  RATE_LIMIT_ENABLED: T.Boolean({ default: true }),
  RATE_LIMIT_REQUESTS: T.Integer({ default: 100, minimum: 1 }),
  RATE_LIMIT_WINDOW: T.Integer({
    default: 60,
    minimum: 1,
    description: "Seconds over which RATE_LIMIT_REQUESTS refill",
  }),
  RATE_LIMIT_BURST: T.Integer({ default: 20, minimum: 1, description: "Bucket capacity" }),
  RATE_LIMIT_TENANT_REQUESTS: T.Optional(
    T.Integer({
      minimum: 1,
      description:
        "Requests per RATE_LIMIT_WINDOW for a whole tenant, across all its keys (the tenant bucket beside each key bucket); unset: 10 × RATE_LIMIT_REQUESTS",
    }),
  ),
  RATE_LIMIT_TENANT_BURST: T.Optional(
    T.Integer({ minimum: 1, description: "Tenant bucket capacity; unset: 10 × RATE_LIMIT_BURST" }),
  ),
  RATE_LIMIT_UNAUTHENTICATED_REQUESTS: T.Integer({
    default: 60,
    minimum: 1,
    description:
      "Failed authentications (missing, malformed, unknown or revoked key; wrong superadmin key) one client address may make per RATE_LIMIT_WINDOW before it gets 429s; checked before the key is looked up",
  }),
  RATE_LIMIT_UNAUTHENTICATED_BURST: T.Integer({
    default: 20,
    minimum: 1,
    description: "Capacity of each client address's bucket of failed authentications",
  }),
  TRUSTED_PROXY_HOPS: T.Integer({
    default: 0,
    minimum: 0,
    maximum: 10,
    description:
      "How many proxies in front of the service append to X-Forwarded-For; the client address is the entry the outermost of them appended. 0: the socket's peer address, X-Forwarded-For ignored",
  }),
  API_KEY_CACHE_TTL_MS: T.Integer({
    default: 5000,
    minimum: 0,
    maximum: 300000,
    description:
      "How long a process may reuse a verified API key without looking it up again. Revocation and scope changes reach every process at once over LISTEN/NOTIFY; this bounds staleness only while that listener is disconnected. 0: look the key up on every request",
  }),
  API_KEYS_MAX_ACTIVE: T.Integer({
    default: 100,
    minimum: 1,
    description:
      "Most live (unrevoked) API keys one tenant may hold; POST /v1/api-keys beyond it is a 409 key-limit-reached",
  }),
  AUDIT_DRAIN_INTERVAL_SECONDS: T.Number({
    default: 1,
    exclusiveMinimum: 0,
    description: "How often beat schedules svc.audit_drain",
  }),
  REFINE_BEAT_INTERVAL_SECONDS: T.Integer({
    default: 0,
    minimum: 0,
    description: "svc.refine_scheduler_tick period; 0 disables the tick",
  }),
  USAGE_BUDGET_DAILY_TOKENS: T.Optional(
    T.Integer({ minimum: 0, description: "Default daily token cap per tenant (unset: unlimited)" }),
  ),
  USAGE_BUDGET_MONTHLY_TOKENS: T.Optional(
    T.Integer({
      minimum: 0,
      description: "Default monthly token cap per tenant (unset: unlimited)",
    }),
  ),
  INGEST_MAX_FILE_BYTES: T.Integer({
    default: 26214400,
    minimum: 1,
    description: "Cap on one uploaded file (25 MiB)",
  }),
  SVC_AUDIT_LISTEN_ENABLED: T.Boolean({
    default: false,
    description: "svc worker LISTENs on svc_audit_pending and drains on every write",
  }),
};
