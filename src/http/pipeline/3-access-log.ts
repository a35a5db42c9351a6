// Layer 3, access log and metrics: exactly one JSON line per request, written when the response is
// ready.
import type { Logger } from "../../observability/log";
import type { Metrics } from "../../observability/metrics";
import type { RequestContext } from "../request-context";
import { requestPath } from "./0-request-target";

export function logRequest(
  log: Logger,
  metrics: Metrics,
  request: Request,
  response: Response,
  ctx: RequestContext,
): void {
  const route = ctx.route ?? "unmatched";
  const seconds = (performance.now() - ctx.startedAt) / 1000;
  metrics.httpRequests.inc({ method: request.method, route, status: String(response.status) });
  metrics.httpDuration.observe({ method: request.method, route }, seconds);
  log.info({
    msg: "request",
    request_id: ctx.requestId,
    method: request.method,
    route,
    path: requestPath(request),
    status: response.status,
    latency_ms: Math.round(seconds * 100_000) / 100,
    org_id: ctx.identity?.role === "tenant" ? ctx.identity.orgId : undefined,
    key_start: ctx.identity?.keyStart,
  });
}
