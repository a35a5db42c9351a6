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

export function corsLayer(originsSetting: string) {
  const origins = originsSetting
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const wildcard = origins.length === 0 || origins.includes("*");
  return cors({
    origin: wildcard ? "*" : origins,
    credentials: !wildcard,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    maxAge: 600,
  });
}
