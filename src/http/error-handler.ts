// The one place errors become responses: typed errors render as themselves, framework errors map to
// their slug, dependency outages and statement timeouts to 503, and anything else to a generic 500
// that carries the request id.
import { isDatabaseUnavailable, isQueryTimeout } from "../data/errors";
import { AppError, validationFailed } from "../lib/errors";
import type { Logger } from "../observability/log";
import type { GatedOffDetail } from "./gated-off";
import { requestPath } from "./pipeline/0-request-target";
import { problemResponse } from "./problem";
import { contextOf } from "./request-context";
import { validationProblems } from "./validation-problems";

export function toAppError(
  code: string | number,
  error: unknown,
  log: Logger,
  requestId: string | undefined,
  request?: Request,
): AppError {
  if (error instanceof AppError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return cause;
  if (code === "VALIDATION" && (error as { type?: string }).type !== "response" && request)
    return validationFailed(validationProblems(error, request));
  if (code === "NOT_FOUND") return new AppError("not-found", "No such route");
  if (code === "PARSE")
    return new AppError("malformed-request", "The request body could not be parsed");
  if (code === "INVALID_COOKIE_SIGNATURE" || code === "INVALID_FILE_TYPE")
    return new AppError("malformed-request", "The request could not be parsed");
  if (isQueryTimeout(error) || isQueryTimeout(cause)) {
    log.warn({ msg: "statement timeout", request_id: requestId, err: error });
    return new AppError(
      "service-unavailable",
      "The database did not finish this request within its statement timeout; narrow it or retry",
    );
  }
  if (isDatabaseUnavailable(error) || isDatabaseUnavailable(cause)) {
    log.warn({ msg: "database unavailable", request_id: requestId, err: error });
    return new AppError("service-unavailable", "The database is unreachable; retry shortly");
  }
  log.error({ msg: "unhandled error", request_id: requestId, code, err: error });
  return new AppError(
    "internal-error",
    `An unexpected error occurred; quote request id ${requestId ?? "unknown"}`,
  );
}

export function errorHandler(
  typeBase: string,
  log: Logger,
  gatedOff: GatedOffDetail = () => undefined,
) {
  return ({
    code,
    error,
    request,
  }: {
    code: string | number;
    error: unknown;
    request: Request;
  }) => {
    const requestId = contextOf(request)?.requestId;
    const off = code === "NOT_FOUND" ? gatedOff(request.method, requestPath(request)) : undefined;
    const problem = off
      ? new AppError("not-found", off)
      : toAppError(code, error, log, requestId, request);
    return problemResponse(problem, request, typeBase, requestId);
  };
}
