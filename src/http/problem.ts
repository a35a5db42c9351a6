// Renders AppError as RFC 7807 application/problem+json. The `type` base comes from configuration
// only: a request's Host header is never reflected into a response.
import type { Config } from "../config/schema";
import type { AppError } from "../lib/errors";

/** Where /docs lives for clients: SVC_DOCS_URL, else SVC_PUBLIC_URL/docs, else the bind address. */
export function problemTypeBase(
  config: Pick<Config, "SVC_DOCS_URL" | "SVC_PUBLIC_URL" | "HOST" | "PORT">,
): string {
  if (config.SVC_DOCS_URL) return config.SVC_DOCS_URL.replace(/\/+$/, "");
  if (config.SVC_PUBLIC_URL) return `${config.SVC_PUBLIC_URL.replace(/\/+$/, "")}/docs`;
  const wildcard = config.HOST === "0.0.0.0" || config.HOST === "::";
  const host = wildcard
    ? "localhost"
    : config.HOST.includes(":")
      ? `[${config.HOST}]`
      : config.HOST;
  return `http://${host}:${config.PORT}/docs`;
}

export function problemResponse(
  error: AppError,
  request: Request,
  typeBase: string,
  requestId: string | undefined,
): Response {
  const body = {
    type: `${typeBase}/errors/${error.slug}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    // A request refused for its missing Host has only a path for a URL.
    instance: URL.parse(request.url, "http://host.invalid")?.pathname ?? "/",
    ...(requestId ? { request_id: requestId } : {}),
    ...error.extra.fields,
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "content-type": "application/problem+json", ...error.extra.headers },
  });
}
