// Layer 2, request id: keep a caller's X-Request-Id only when it is 1–255 chars of [A-Za-z0-9_=.-]
// (no CRLF, nothing to inject into logs); otherwise generate one.
import { newId } from "../../lib/ids";

const SAFE_REQUEST_ID = /^[A-Za-z0-9_=.-]{1,255}$/;

export function resolveRequestId(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && SAFE_REQUEST_ID.test(given) ? given : newId("req");
}
