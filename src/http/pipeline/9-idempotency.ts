// Layer 9, idempotency.
// Idempotency-Key on POST routes (docs/idempotency.md), in one place for every route. Before the
// handler (after authentication, rate limit, authorization and validation) the key is claimed for
// the tenant, or the stored response is replayed with `Idempotent-Replayed: true` and nothing runs;
// after the response is rendered, settleIdempotency stores it (2xx–4xx) or releases the claim (5xx,
// 429: the client retries).
import { Elysia } from "elysia";
import type { Deps } from "../../operations/deps";
import { requestFingerprint } from "../../domain/idempotency/fingerprint";
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from "../../domain/idempotency/key-header";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type Claim,
  type StoredResponse,
} from "../../domain/idempotency/records";
import { contextOf } from "../request-context";

export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed";

/**
 * POST routes that ignore the header: their answers are streams (SSE, MCP's JSON-RPC sessions), not
 * one stored body.
 */
export const IDEMPOTENCY_EXEMPT_ROUTES: ReadonlySet<string> = new Set([
  "/v1/memories/recall/stream",
  "/mcp",
]);

/**
 * Response headers replayed with the stored body; rate-limit and request-id headers are the
 * replay's own.
 */
const REPLAYED_HEADERS = ["content-type", "location", "content-language"];

export function honoursIdempotencyKey(method: string, route: string): boolean {
  return method.toUpperCase() === "POST" && !IDEMPOTENCY_EXEMPT_ROUTES.has(route);
}

const claims = new WeakMap<Request, Claim>();

export function idempotencyLayer(deps: Pick<Deps, "db" | "config">) {
  return new Elysia({ name: "svc.idempotency" }).onBeforeHandle(
    { as: "global" },
    async ({ request, route, body }) => {
      const raw = request.headers.get(IDEMPOTENCY_KEY_HEADER);
      if (raw === null || !honoursIdempotencyKey(request.method, route)) return;
      const identity = contextOf(request)?.identity;
      if (identity?.role !== "tenant") return;
      const key = parseIdempotencyKey(raw);
      const url = new URL(request.url);
      const fingerprint = await requestFingerprint({
        method: request.method,
        pathAndQuery: url.pathname + url.search,
        keyId: identity.keyId,
        body,
      });
      const outcome = await claimIdempotencyKey(deps, identity.orgId, key, fingerprint);
      if (outcome.kind === "claimed") {
        claims.set(request, outcome.claim);
        return;
      }
      return replay(outcome.response);
    },
  );
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set(IDEMPOTENT_REPLAYED_HEADER, "true");
  return new Response(stored.body, { status: stored.status, headers });
}

/**
 * Stores (or releases) the claim of `request`, if it made one; the response itself passes through
 * unchanged.
 */
export async function settleIdempotency(
  deps: Pick<Deps, "db" | "config" | "log">,
  request: Request,
  response: Response,
): Promise<Response> {
  const claim = claims.get(request);
  if (!claim) return response;
  claims.delete(request);
  try {
    if (response.status >= 500 || response.status === 429) {
      await releaseIdempotencyKey(deps, claim);
      return response;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const body = await response.clone().text();
    if (!(await completeIdempotencyKey(deps, claim, { status: response.status, headers, body }))) {
      deps.log.warn({
        msg: "idempotency claim was taken over before its response was stored",
        request_id: contextOf(request)?.requestId,
      });
    }
  } catch (error) {
    // The work is done and answered; the claim goes stale and a retry after the in-flight timeout
    // re-executes.
    deps.log.warn({
      msg: "could not store the idempotent response",
      request_id: contextOf(request)?.requestId,
      err: error,
    });
  }
  return response;
}

type OpenApiDocument = {
  paths?: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; in: string }>; description?: string }>
  >;
};

/**
 * Adds the optional Idempotency-Key header parameter to every honouring operation of /openapi.json
 * (idempotent).
 */
export function documentIdempotencyKey(spec: OpenApiDocument): void {
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    const operation = item.post;
    if (!operation || !honoursIdempotencyKey("POST", path.replace(/\{([^}]+)\}/g, ":$1"))) continue;
    const parameters = (operation.parameters ??= []);
    if (parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key")) continue;
    parameters.push(IDEMPOTENCY_KEY_PARAMETER as never);
  }
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes the POST safe to retry: a repeat with the same key and request replays the first response (marked `Idempotent-Replayed: true`) without running it again. 1–255 printable ASCII characters; kept IDEMPOTENCY_KEY_TTL_SECONDS. See docs/idempotency.md.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};
