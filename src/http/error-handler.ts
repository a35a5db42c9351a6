// The one place errors become responses: typed errors render as themselves, framework errors map to
// their slug, dependency outages to 503, and anything else to a generic 500 that carries the request id.
import { isDatabaseUnavailable } from "../data/errors";
import { AppError, validationFailed, type FieldProblem } from "../domain/errors";
import type { Logger } from "../observability/log";
import { problemResponse } from "./problem";
import { contextOf } from "./request-context";

type ValidationIssue = { path?: string; message?: string; summary?: string };

/** Elysia's coerced query numbers fail as a nameless "property"; find the parameter by its value. */
function propertyName(error: unknown, request: Request): string {
  const value = String((error as { value?: unknown }).value);
  for (const [name, raw] of new URL(request.url).searchParams) if (raw === value) return `query:/${name}`;
  return "query:/";
}

function fieldProblems(error: unknown, request: Request): FieldProblem[] {
  const all = (error as { all?: ValidationIssue[] }).all ?? [];
  const where = (error as { type?: string }).type;
  if (where === "property") return [{ path: propertyName(error, request), message: all[0]?.summary ?? "is invalid" }];
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const issue of all) {
    const path = `${where && where !== "body" ? `${where}:` : ""}${issue.path || "/"}`;
    const message = issue.summary ?? issue.message ?? "is invalid";
    if (seen.has(path + message)) continue;
    seen.add(path + message);
    problems.push({ path, message });
  }
  return problems.length > 0 ? problems : [{ path: "/", message: "is invalid" }];
}

export function toAppError(code: string | number, error: unknown, log: Logger, requestId: string | undefined, request?: Request): AppError {
  if (error instanceof AppError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return cause;
  if (code === "VALIDATION" && (error as { type?: string }).type !== "response" && request) return validationFailed(fieldProblems(error, request));
  if (code === "NOT_FOUND") return new AppError("not-found", "No such route");
  if (code === "PARSE") return new AppError("malformed-request", "The request body could not be parsed");
  if (code === "INVALID_COOKIE_SIGNATURE" || code === "INVALID_FILE_TYPE") return new AppError("malformed-request", "The request could not be parsed");
  if (isDatabaseUnavailable(error) || isDatabaseUnavailable(cause)) {
    log.warn({ msg: "database unavailable", request_id: requestId, err: error });
    return new AppError("service-unavailable", "The database is unreachable; retry shortly");
  }
  log.error({ msg: "unhandled error", request_id: requestId, code, err: error });
  return new AppError("internal-error", `An unexpected error occurred; quote request id ${requestId ?? "unknown"}`);
}

export function errorHandler(docsUrl: string | undefined, log: Logger) {
  return ({ code, error, request }: { code: string | number; error: unknown; request: Request }) => {
    const requestId = contextOf(request)?.requestId;
    return problemResponse(toAppError(code, error, log, requestId, request), request, docsUrl, requestId);
  };
}
