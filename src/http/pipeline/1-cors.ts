// Layer 1, CORS: origins from SVC_CORS_ORIGINS (comma-separated, default *). Credentials are never
// allowed together with a wildcard origin.
import { cors } from "@elysiajs/cors";

export const CORS_ALLOWED_HEADERS = [
  "content-type",
  "authorization",
  "x-api-key",
  "x-request-id",
  "idempotency-key",
];
export const CORS_EXPOSED_HEADERS = [
  "x-request-id",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "idempotent-replayed",
];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function originsOf(originsSetting: string) {
  const origins = originsSetting
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  return { origins, wildcard: origins.length === 0 || origins.includes("*") };
}

export function corsLayer(originsSetting: string) {
  const { origins, wildcard } = originsOf(originsSetting);
  return cors({
    origin: wildcard ? "*" : origins,
    credentials: !wildcard,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    methods: METHODS,
    maxAge: 600,
  });
}

/**
 * The headers this layer puts on an answer to a request that is not a preflight, given its Origin:
 * for answers made before the layer runs (front-refusal.ts), the same as @elysiajs/cors writes.
 */
export function corsAnswerHeaders(originsSetting: string) {
  const { origins, wildcard } = originsOf(originsSetting);
  const fixed: Record<string, string> = {
    "access-control-expose-headers": CORS_EXPOSED_HEADERS.join(", "),
    "access-control-allow-headers": CORS_ALLOWED_HEADERS.join(", "),
    ...(wildcard ? {} : { "access-control-allow-credentials": "true" }),
    "access-control-allow-methods": METHODS.join(", "),
  };
  const allowed = (origin: string) =>
    origins.includes(origin) ||
    (origin.includes("://") && origins.includes(origin.slice(origin.indexOf("://") + 3)));
  return (origin: string | null): Record<string, string> => {
    if (wildcard) return { ...fixed, vary: "*", "access-control-allow-origin": "*" };
    if (origin && allowed(origin))
      return { ...fixed, vary: "Origin", "access-control-allow-origin": origin };
    return { ...fixed, vary: "Origin" };
  };
}
