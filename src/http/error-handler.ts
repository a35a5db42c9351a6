// The one place errors become responses: typed errors render as themselves, framework errors map to
// their slug, dependency outages to 503, and anything else to a generic 500 that carries the request id.
import { isDatabaseUnavailable } from "../data/errors";
import { AppError, validationFailed, type FieldProblem } from "../domain/errors";
import type { Logger } from "../observability/log";
import { problemResponse } from "./problem";
import { contextOf } from "./request-context";

type ValidationIssue = { path?: string; message?: string; summary?: string };

function fieldProblems(error: unknown): FieldProblem[] {
  const all = (error as { all?: ValidationIssue[] }).all ?? [];
  const where = (error as { type?: string }).type;
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

export function toAppError(code: string | number, error: unknown, log: Logger, requestId: string | undefined): AppError {
  if (error instanceof AppError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return cause;
  if (code === "VALIDATION" && (error as { type?: string }).type !== "response") return validationFailed(fieldProblems(error));
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
    return problemResponse(toAppError(code, error, log, requestId), request, docsUrl, requestId);
  };
}
