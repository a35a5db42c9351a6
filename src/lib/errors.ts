// Typed errors: every failure a client can see has a slug, a status and a public detail.
import { ERROR_CATALOG, type ErrorSlug } from "./error-catalog";
import { fieldLabel } from "./validation/field-label";

export type FieldProblem = { path: string; message: string };

export class AppError extends Error {
  readonly status: number;
  readonly title: string;
  constructor(
    readonly slug: ErrorSlug,
    readonly detail: string,
    readonly extra: { headers?: Record<string, string>; fields?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.status = ERROR_CATALOG[slug].status;
    this.title = ERROR_CATALOG[slug].title;
  }
}

export const notFound = (what: string) => new AppError("not-found", `${what} was not found`);
export const unauthenticated = (detail: string) => new AppError("unauthenticated", detail);
export const forbidden = (detail: string) => new AppError("forbidden", detail);
/** 403 naming the scopes the key lacks, in `missing_scopes`. */
export const insufficientScope = (detail: string, missing: readonly string[]) =>
  new AppError("insufficient-scope", detail, { fields: { missing_scopes: [...missing] } });
export const keyLimitReached = (max: number) =>
  new AppError(
    "key-limit-reached",
    `The tenant already has ${max} active API keys, the most API_KEYS_MAX_ACTIVE allows; revoke one first`,
    { fields: { max_active_keys: max } },
  );
export const conflict = (detail: string) => new AppError("conflict", detail);
/** 400 for an Idempotency-Key header that is not 1–255 printable ASCII characters. */
export const badIdempotencyKey = (detail: string) =>
  new AppError("malformed-request", detail, {
    fields: {
      header: "Idempotency-Key",
      errors: [{ path: "header:idempotency-key", message: detail }],
    },
  });
export const idempotencyKeyInFlight = (retryAfterSeconds: number) =>
  new AppError(
    "idempotency-key-in-flight",
    `A request with this Idempotency-Key is still in flight; retry after ${retryAfterSeconds} s`,
    {
      headers: { "retry-after": String(retryAfterSeconds) },
      fields: { header: "Idempotency-Key" },
    },
  );
export const idempotencyKeyReused = () =>
  new AppError(
    "idempotency-key-reused",
    "This Idempotency-Key was used with a different request (method, path, API key or body); send a new key for a new request",
    { fields: { header: "Idempotency-Key" } },
  );
/** 410: the key's stored answer named a memory since forgotten or expired (docs/idempotency.md). */
export const idempotencyKeyForgotten = () =>
  new AppError(
    "idempotency-key-forgotten",
    "The answer stored for this Idempotency-Key named a memory that was since forgotten or expired; it is not replayed and the request is not run again. Send a new key for a new request",
    { fields: { header: "Idempotency-Key" } },
  );
/**
 * 503: the tenant's share of the database stayed busy while this request waited
 * (docs/operations.md).
 */
export const tenantBusy = (what: string, limit: number) =>
  new AppError("tenant-busy", `This tenant already has ${limit} ${what} running; retry after 1 s`, {
    headers: { "retry-after": "1" },
  });
/** 503: the tenant used its share of heavy database time and owes more than it may wait. */
export const tenantOverBudget = (owedMs: number) => {
  const seconds = Math.max(1, Math.ceil(owedMs / 1000));
  return new AppError(
    "tenant-busy",
    "This tenant used its share of heavy database time (TENANT_HEAVY_CPU_SHARE); " +
      `its next heavy query may start in ${seconds} s`,
    { headers: { "retry-after": String(seconds) } },
  );
};
/** 409: one export per tenant at a time (docs/export.md). */
export const exportInProgress = (retryAfterSeconds: number) =>
  new AppError(
    "export-in-progress",
    `This tenant already has an export running; retry after ${retryAfterSeconds} s`,
    { headers: { "retry-after": String(retryAfterSeconds) } },
  );
export const gone = (detail: string) => new AppError("gone", detail);
/** 422 whose detail names each field in plain words ("top_k must be an integer from 1 to 100"). */
export const validationFailed = (errors: FieldProblem[]) =>
  new AppError(
    "validation-failed",
    errors.map((e) => `${fieldLabel(e.path)} ${e.message}`).join("; "),
    { fields: { errors } },
  );

export type RateLimitBucket = "api_key" | "tenant" | "client_address";

const WHOSE = {
  api_key: "",
  tenant: " for this tenant (its bucket is shared by all its keys)",
  client_address: " from this address without a valid API key",
} as const;

/** The 429's detail; also written by the refusal before the pipeline (http/front-refusal.ts). */
export const rateLimitedDetail = (retryAfterSeconds: number, bucket: RateLimitBucket) =>
  `Too many requests${WHOSE[bucket]}; retry after ${retryAfterSeconds} s`;

/**
 * `bucket` says which bucket is empty: the key's own, the tenant's shared by all its keys, or the
 * client address's bucket of failed authentications.
 */
export function rateLimited(
  retryAfterSeconds: number,
  headers: Record<string, string>,
  bucket: RateLimitBucket = "api_key",
) {
  return new AppError("rate-limited", rateLimitedDetail(retryAfterSeconds, bucket), {
    headers: { ...headers, "retry-after": String(retryAfterSeconds) },
    fields: { bucket },
  });
}
