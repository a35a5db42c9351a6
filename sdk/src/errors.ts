// Typed errors by RFC 7807 problem slug: the slug is the last segment of the problem's `type` URL.

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  request_id?: string;
  [extra: string]: unknown;
};

export type FieldProblem = { path: string; message: string };

/** Base of every error the SDK throws for an HTTP problem. */
export class SvcError extends Error {
  readonly type: string;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = new.target.name;
    this.problem = problem;
    this.type = problem.type;
    this.slug = slugOf(problem.type);
    this.title = problem.title;
    this.detail = problem.detail;
    this.status = problem.status;
    this.requestId = problem.request_id;
  }
}

export class MalformedRequestError extends SvcError {}
export class UnauthenticatedError extends SvcError {}
export class ForbiddenError extends SvcError {}
/** 404: the resource is not in your tenant, or the route does not exist (its gate is off). */
export class NotFoundError extends SvcError {}
export class ConflictError extends SvcError {}
export class GoneError extends SvcError {}
export class PayloadTooLargeError extends SvcError {}

/** 422: `errors` names each failing field; `field` is the first one's path (e.g. "/content"). */
export class ValidationError extends SvcError {
  readonly errors: FieldProblem[];
  readonly field: string | undefined;
  constructor(problem: Problem) {
    super(problem);
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldProblem[]) : [];
    this.field = this.errors[0]?.path;
  }
}

/** 429 (rate-limited or budget-exceeded): `retryAfter` is the server's Retry-After in seconds. */
export class RateLimitedError extends SvcError {
  readonly retryAfter: number | undefined;
  constructor(problem: Problem, retryAfter: number | undefined) {
    super(problem);
    this.retryAfter = retryAfter;
  }
}
export class BudgetExceededError extends RateLimitedError {}
export class ServiceUnavailableError extends SvcError {
  readonly retryAfter: number | undefined;
  constructor(problem: Problem, retryAfter: number | undefined) {
    super(problem);
    this.retryAfter = retryAfter;
  }
}
/**
 * 409: a request with the same Idempotency-Key is still running; retried automatically after
 * `retryAfter` s.
 */
export class IdempotencyKeyInFlightError extends ConflictError {
  readonly retryAfter: number | undefined;
  constructor(problem: Problem, retryAfter: number | undefined) {
    super(problem);
    this.retryAfter = retryAfter;
  }
}
/** 422: the Idempotency-Key was already used for a different request. */
export class IdempotencyKeyReusedError extends SvcError {}
export class InternalError extends SvcError {}

/** The request did not finish within the client's timeout. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`request timed out after ${ms} ms`);
    this.name = "TimeoutError";
  }
}

/** A job ended in a state other than `succeeded`. */
export class JobFailedError extends Error {
  constructor(readonly job: { job_id: string; state: string; error?: string | null }) {
    super(`job ${job.job_id} ended ${job.state}${job.error ? `: ${job.error}` : ""}`);
    this.name = "JobFailedError";
  }
}

export function slugOf(type: string): string {
  return type.slice(type.lastIndexOf("/") + 1);
}

const BY_SLUG: Record<string, new (problem: Problem) => SvcError> = {
  "malformed-request": MalformedRequestError,
  unauthenticated: UnauthenticatedError,
  forbidden: ForbiddenError,
  "insufficient-scope": ForbiddenError,
  "not-found": NotFoundError,
  conflict: ConflictError,
  "key-limit-reached": ConflictError,
  gone: GoneError,
  "idempotency-key-forgotten": GoneError,
  "payload-too-large": PayloadTooLargeError,
  "validation-failed": ValidationError,
  "idempotency-key-reused": IdempotencyKeyReusedError,
  "internal-error": InternalError,
};

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

export function errorFromProblem(problem: Problem, headers: Headers): SvcError {
  const retryAfter = parseRetryAfter(headers.get("retry-after"));
  const slug = slugOf(problem.type);
  if (slug === "budget-exceeded") return new BudgetExceededError(problem, retryAfter);
  if (slug === "rate-limited" || problem.status === 429)
    return new RateLimitedError(problem, retryAfter);
  if (slug === "service-unavailable" || problem.status === 503)
    return new ServiceUnavailableError(problem, retryAfter);
  if (slug === "idempotency-key-in-flight")
    return new IdempotencyKeyInFlightError(problem, retryAfter);
  const Known = BY_SLUG[slug];
  if (Known) return new Known(problem);
  if (problem.status === 404) return new NotFoundError(problem);
  if (problem.status === 422) return new ValidationError(problem);
  return new SvcError(problem);
}

/** A problem for a response whose body is not problem+json (a proxy's HTML page, an empty body). */
export function syntheticProblem(status: number, statusText: string, body: string): Problem {
  return {
    type: "about:blank",
    title: statusText || `HTTP ${status}`,
    status,
    detail: body.slice(0, 500),
  };
}
