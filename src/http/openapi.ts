// /openapi.json, /docs (Swagger UI) and /redoc (ReDoc), all served from local npm bundles: no CDN.
// Only routes that are mounted appear, so a gated-off route is absent from the description.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import redocBundle from "redoc/bundles/redoc.standalone.js" with { type: "file" };
import pkg from "../../package.json";
import { documentIdempotencyKey } from "./pipeline/9-idempotency";

const asset = (path: string, type: string) => () =>
  new Response(Bun.file(path), {
    headers: { "content-type": type, "cache-control": "public, max-age=86400" },
  });

const REDOC_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>svc API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/_assets/redoc.standalone.js"></script></body></html>`;

// Every URL absolute, so /docs and /docs/ both load the definition.
const SWAGGER_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/_assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/_assets/swagger-ui-bundle.js" crossorigin></script>
<script>window.onload = () => { window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" }); };</script></body></html>`;

const html = (page: string) => () =>
  new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });

export function openapiLayer() {
  return (
    new Elysia({ name: "svc.openapi" })
      // The Idempotency-Key header is read by one layer for every POST, not declared per route:
      // document it here.
      .onAfterHandle({ as: "global" }, ({ request, responseValue }) => {
        if (
          request.url.endsWith("/openapi.json") &&
          responseValue &&
          typeof responseValue === "object"
        )
          documentIdempotencyKey(responseValue);
      })
      .use(
        openapi({
          specPath: "/openapi.json",
          provider: null, // our own pages below: the plugin's Swagger page loads a relative spec URL, which /docs/ breaks
          exclude: {
            paths: [
              "/_assets/swagger-ui-bundle.js",
              "/_assets/swagger-ui.css",
              "/_assets/redoc.standalone.js",
              "/docs",
              "/docs/",
              "/redoc",
              "/redoc/",
              "/docs/errors",
              "/docs/errors/:slug",
            ],
          },
          documentation: {
            info: {
              title: "svc — memory service for agents",
              version: pkg.version,
              description:
                "Store, recall, forget and audit agent memories. Every error is RFC 7807 problem+json; see /docs/errors.",
            },
            components: {
              securitySchemes: {
                bearer: {
                  type: "http",
                  scheme: "bearer",
                  description: "API key (svc_sk_…) as a bearer token",
                },
                apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
              },
            },
            security: [{ bearer: [] }, { apiKey: [] }],
          },
        }),
      )
      .get("/_assets/swagger-ui-bundle.js", asset(swaggerBundle, "text/javascript"), {
        detail: { hide: true },
      })
      .get("/_assets/swagger-ui.css", asset(swaggerCss, "text/css"), { detail: { hide: true } })
      .get("/_assets/redoc.standalone.js", asset(redocBundle, "text/javascript"), {
        detail: { hide: true },
      })
      .get("/docs", html(SWAGGER_PAGE), { detail: { hide: true } })
      .get("/docs/", html(SWAGGER_PAGE), { detail: { hide: true } })
      .get("/redoc", html(REDOC_PAGE), { detail: { hide: true } })
      .get("/redoc/", html(REDOC_PAGE), { detail: { hide: true } })
  );
}
