// Every problem slug the service can return, with the page served at {SVC_DOCS_URL}/errors/<slug>.
export const ERROR_CATALOG = {
  "malformed-request": {
    status: 400,
    title: "Malformed Request",
    description:
      "The body is not valid JSON, or a header or parameter cannot be parsed. Fix the request; retrying it unchanged will fail again.",
  },
  unauthenticated: {
    status: 401,
    title: "Unauthenticated",
    description:
      "No API key, a malformed key, or a key that is unknown or revoked. Send `Authorization: Bearer svc_sk_…` or `X-API-Key: svc_sk_…`.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    description:
      "The key is valid but may not call this route (for example a tenant key on a superadmin route).",
  },
  "insufficient-scope": {
    status: 403,
    title: "Insufficient Scope",
    description:
      "The key is valid but lacks the scope this route needs (the `missing_scopes` field names it), or asked to create a key with a scope it does not hold. See docs/keys.md for which route needs which scope.",
  },
  "key-limit-reached": {
    status: 409,
    title: "Key Limit Reached",
    description:
      "The tenant already has API_KEYS_MAX_ACTIVE live API keys. Revoke one (DELETE /v1/api-keys/{key_id}) before creating another.",
  },
  "not-found": {
    status: 404,
    title: "Not Found",
    description:
      "The route does not exist (or its gate is off), or the resource does not exist in your tenant. Another tenant's ids are always reported as not found.",
  },
  "method-not-allowed": {
    status: 405,
    title: "Method Not Allowed",
    description:
      "The path exists but not with this method; the `Allow` header lists the methods it takes (for example POST /v1/memories/recall).",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    description:
      "The resource is in a state that does not allow this operation (for example ending a session twice).",
  },
  "idempotency-key-in-flight": {
    status: 409,
    title: "Idempotency Key In Flight",
    description:
      "Another request with this Idempotency-Key is still being executed. Retry after `Retry-After` seconds: you then get its stored response. See docs/idempotency.md.",
  },
  "idempotency-key-reused": {
    status: 422,
    title: "Idempotency Key Reused",
    description:
      "This Idempotency-Key was already used with a different request (method, path, API key or body). Use a fresh key for a new request; a key is remembered for IDEMPOTENCY_KEY_TTL_SECONDS.",
  },
  "export-in-progress": {
    status: 409,
    title: "Export In Progress",
    description:
      "The tenant already has an export running; one runs at a time per tenant. Retry after `Retry-After` seconds, when it has finished or been abandoned (docs/export.md).",
  },
  "idempotency-key-forgotten": {
    status: 410,
    title: "Idempotency Key Forgotten",
    description:
      "The answer stored for this Idempotency-Key named a memory that was since forgotten or expired, so it is not replayed, and the request is not run again (it would store the other items twice or bring the forgotten one back). Use a fresh key for a new request. See docs/idempotency.md.",
  },
  gone: {
    status: 410,
    title: "Gone",
    description: "The resource was deleted or forgotten; its history may still be readable.",
  },
  "payload-too-large": {
    status: 413,
    title: "Payload Too Large",
    description:
      "The request body exceeds the configured cap (SVC_MAX_BODY_BYTES for JSON, INGEST_MAX_FILE_BYTES for file uploads).",
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported Media Type",
    description:
      "The Content-Type is not accepted by this route; JSON routes take application/json.",
  },
  "validation-failed": {
    status: 422,
    title: "Validation Failed",
    description:
      "The request is well-formed but a field is missing or out of range. The `errors` array names each failing field.",
  },
  "rate-limited": {
    status: 429,
    title: "Rate Limit Exceeded",
    description:
      "The key's token bucket, or the tenant's bucket shared by all its keys (`bucket` says which), is empty. Wait for `Retry-After` seconds; `X-RateLimit-*` headers show the posture.",
  },
  "budget-exceeded": {
    status: 429,
    title: "Budget Exceeded",
    description:
      "The tenant's daily or monthly token budget is spent. `Retry-After` says when the period resets.",
  },
  "internal-error": {
    status: 500,
    title: "Internal Server Error",
    description:
      "An unexpected failure. Quote the `request_id` when reporting it; no internals are ever included.",
  },
  "strategy-unavailable": {
    status: 501,
    title: "Strategy Unavailable",
    description: "The pinned recall strategy is not available in this deployment.",
  },
  "tenant-busy": {
    status: 503,
    title: "Tenant Busy",
    description:
      "This tenant already has its share of the database at work (TENANT_DB_CONCURRENCY transactions, or TENANT_HEAVY_CONCURRENCY heavy operations such as CYPHER, GRAPH walks and exports), or has used its share of heavy database time (TENANT_HEAVY_CPU_SHARE), and this request would wait longer than TENANT_DB_WAIT_MS for a turn. Retry after `Retry-After` seconds; other tenants are not affected.",
  },
  "service-unavailable": {
    status: 503,
    title: "Service Unavailable",
    description:
      "A dependency (database, key-value store, provider) is unreachable. Retry with backoff; nothing was changed.",
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ErrorSlug = keyof typeof ERROR_CATALOG;
