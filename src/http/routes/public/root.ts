// GET /: where to start, for a person or a client that opened the server's address. Public, like
// /docs; hidden from OpenAPI (it describes the other routes, not itself an operation to call).
import { Elysia } from "elysia";
import pkg from "../../../../package.json";

export const rootRoute = () =>
  new Elysia().get(
    "/",
    () => ({
      service: "svc",
      version: pkg.version,
      docs: "/docs",
      openapi: "/openapi.json",
      health: "/v1/health",
      authentication:
        "Authorization: Bearer svc_sk_… (or X-API-Key) on every /v1 route but the health probes",
    }),
    { detail: { hide: true } },
  );
