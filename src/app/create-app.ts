// createApp(deps): the request pipeline in the spec's order, then the mounted routes, then one
// error renderer. (Layer 0, in handleRequest: a request without a valid Host is a 400 before
// anything else.) CORS → request id → access log → body limit → authenticate → rate limit → handler
// (authorize, i.e. the route's key scope, and the input rules run first, once the route is matched;
// then, after validation, the Idempotency-Key claim or replay, settled once the response exists).
// Request id and access log wrap the whole app (see handleRequest) so that every response,
// including early 401/413/429 and unknown routes, is counted once; only the 429s the memory of
// empty buckets answers before the app (front-refusal.ts) are counted by a metric of their own.
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../operations/deps";
import { shareScope } from "../data/tenant-share";
import { errorHandler } from "../http/error-handler";
import { gatedOffDetail } from "../http/gated-off";
import { buildRoutes } from "../http/mount";
import { ROUTES } from "./routes";
import { openapiLayer } from "../http/openapi";
import { corsLayer } from "../http/pipeline/1-cors";
import { resolveRequestId } from "../http/pipeline/2-request-id";
import { logRequest } from "../http/pipeline/3-access-log";
import { bodyLimitLayer } from "../http/pipeline/4-body-limit";
import { authenticateLayer } from "../http/pipeline/5-authenticate";
import { rateLimitLayer } from "../http/pipeline/6-rate-limit";
import { tenantBucketPolicyOf } from "../domain/ratelimit/tenant-policy";
import { addressBucketPolicyOf, createAddressThrottle } from "../domain/ratelimit/address-throttle";
import { clientAddress, type SocketPeer } from "../http/client-address";
import { idempotencyLayer, settleIdempotency } from "../http/pipeline/9-idempotency";
import { inputRulesLayer } from "../http/pipeline/8-input-rules";
import { authorizeLayer } from "../http/pipeline/7-authorize";
import { declareRouteScopes } from "../http/route-scopes";
import { routeMatcher } from "../http/route-match";
import { collectRouteSchemas, type RouteSchemas } from "../http/route-schemas";
import { problemResponse, problemTypeBase } from "../http/problem";
import { canonicalRequest, requestPath } from "../http/pipeline/0-request-target";
import { AppError } from "../lib/errors";
import { frontRefusal } from "../http/front-refusal";
import { endRequestSpan } from "../observability/tracing";
import { attachContext, contextOf, type RequestContext } from "../http/request-context";

/** Bun's own hard cap: a little above the largest route limit, so our 413 problem answers first. */
export function serverBodyCap(deps: Deps): number {
  return (
    Math.max(deps.config.SVC_MAX_BODY_BYTES, deps.config.INGEST_MAX_FILE_BYTES) + 2 * 1024 * 1024
  );
}

/** Throttling before authentication is part of the rate limit: on with it. */
function addressThrottleOf(deps: Deps) {
  if (!deps.config.RATE_LIMIT_ENABLED) return null;
  return createAddressThrottle(deps.limiter, addressBucketPolicyOf(deps.config));
}

export function createApp(deps: Deps) {
  const { config, gates } = deps;
  const routeSchemas: RouteSchemas = new Map();
  // normalize "typebox": wrong types are rejected (the default would coerce a string body to {}).
  // standardHostname false: the path starts at the first "/" after "http://", not at a fixed offset
  // that assumes a host of 4+ characters (canonicalRequest makes every URL http://host/…).
  const options = {
    normalize: "typebox",
    handler: { standardHostname: false },
    serve: { maxRequestBodySize: serverBodyCap(deps) },
  } as const;
  const routes = buildRoutes(deps, ROUTES);
  let app: AnyElysia = new Elysia(options)
    .onError(
      { as: "global" },
      errorHandler(problemTypeBase(config), deps.log, gatedOffDetail(routes.off)),
    )
    .use(corsLayer(config.SVC_CORS_ORIGINS))
    .use(bodyLimitLayer(config.SVC_MAX_BODY_BYTES, config.INGEST_MAX_FILE_BYTES))
    .use(
      authenticateLayer(
        deps.authenticate,
        gates.superadmin ? config.SUPERADMIN_API_KEY! : null,
        addressThrottleOf(deps),
      ),
    );
  if (config.RATE_LIMIT_ENABLED)
    app = app.use(rateLimitLayer(deps.limiter, deps.bucketPolicy, tenantBucketPolicyOf(config)));
  app = app
    .onTransform({ as: "global" }, ({ request, route }) => {
      const ctx = contextOf(request);
      if (ctx) ctx.route = route;
    })
    .use(authorizeLayer())
    .use(inputRulesLayer(routeSchemas, config))
    .use(idempotencyLayer(deps))
    .use(openapiLayer());
  for (const mounted of routes.mounted) app = app.use(mounted);
  collectRouteSchemas(app, routeSchemas);
  declareRouteScopes(app);
  return app;
}

export type App = AnyElysia;

/** The outer layers: request id in, one log line and the shared headers out. */
/** `peer`: the Bun server (Bun.serve passes it to fetch); absent when a test hands requests in. */
export function handleRequest(
  app: App,
  deps: Deps,
): (request: Request, peer?: SocketPeer) => Promise<Response> {
  const wouldReach = routeMatcher(app);
  const typeBase = problemTypeBase(deps.config);
  const refuseEarly = frontRefusal(deps, typeBase);
  return async (incoming, peer) => {
    const request = canonicalRequest(incoming);
    if (request instanceof AppError) return problemResponse(request, incoming, typeBase, undefined);
    const address = clientAddress(incoming, peer, deps.config.TRUSTED_PROXY_HOPS);
    const requestId = resolveRequestId(request);
    const refused = refuseEarly(request, address, requestId);
    if (refused) return refused;
    const ctx: RequestContext = { requestId, startedAt: performance.now(), clientAddress: address };
    attachContext(request, ctx);
    const span = deps.tracing?.startRequestSpan(request);
    const response = await shareScope(deps.tenantShare ?? null, async () =>
      settleIdempotency(deps, request, await app.handle(request)),
    );
    response.headers.set("x-request-id", ctx.requestId);
    ctx.route ??= wouldReach(request.method, requestPath(request)); // answered before routing (401/413/429)
    if (ctx.rateHeaders)
      for (const [name, value] of Object.entries(ctx.rateHeaders))
        response.headers.set(name, value);
    logRequest(deps.log, deps.metrics, request, response, ctx);
    if (span)
      endRequestSpan(span, request.method, ctx.route ?? "unmatched", response.status, {
        "svc.request_id": ctx.requestId,
        "svc.org_id": ctx.identity?.role === "tenant" ? ctx.identity.orgId : undefined,
      });
    return response;
  };
}
