// Renders AppError as RFC 7807 application/problem+json.
import type { AppError } from "../domain/errors";

export function docsBase(configured: string | undefined, request: Request): string {
  return (configured ?? `${new URL(request.url).origin}/docs`).replace(/\/+$/, "");
}

export function problemResponse(error: AppError, request: Request, docsUrl: string | undefined, requestId: string | undefined): Response {
  const body = {
    type: `${docsBase(docsUrl, request)}/errors/${error.slug}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    instance: new URL(request.url).pathname,
    ...(requestId ? { request_id: requestId } : {}),
    ...error.extra.fields,
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "content-type": "application/problem+json", ...error.extra.headers },
  });
}
