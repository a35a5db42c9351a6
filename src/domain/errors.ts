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
export const conflict = (detail: string) => new AppError("conflict", detail);
export const gone = (detail: string) => new AppError("gone", detail);
/** 422 whose detail names each field in plain words ("top_k must be an integer from 1 to 100"). */
export const validationFailed = (errors: FieldProblem[]) =>
  new AppError("validation-failed", errors.map((e) => `${fieldLabel(e.path)} ${e.message}`).join("; "), { fields: { errors } });

export function rateLimited(retryAfterSeconds: number, headers: Record<string, string>) {
  return new AppError("rate-limited", `Too many requests; retry after ${retryAfterSeconds} s`, {
    headers: { ...headers, "retry-after": String(retryAfterSeconds) },
  });
}
