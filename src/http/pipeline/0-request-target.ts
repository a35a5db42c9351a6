// Layer 0, the request target: the one URL every later decision reads. Bun builds `request.url`
// from the Host header; without a valid one (HTTP/1.0 without Host, `Host:` empty or malformed) the
// URL is only a path, and the request gets a 400 before anything else runs. A TLS listener's https
// URL is rewritten to http, so the router (told to find the path right after "http://", see
// createApp) and every layer that parses the URL see the same path whatever the host's length.
import { AppError } from "../../lib/errors";

export const badRequestTarget = () =>
  new AppError("malformed-request", "The Host header is missing or is not a valid host[:port]");

/**
 * The request every layer and the router see, or the 400 for a target without a valid authority.
 */
export function canonicalRequest(request: Request): Request | AppError {
  const url = URL.parse(request.url);
  if (url === null || url.host === "") return badRequestTarget();
  if (url.protocol === "http:") return request;
  if (url.protocol !== "https:") return badRequestTarget();
  return new Request(`http://${url.host}${url.pathname}${url.search}`, request);
}

/** The path of a request `canonicalRequest` accepted: the same string the router dispatches on. */
export function requestPath(request: Request): string {
  return new URL(request.url).pathname;
}
