// Layer 5, authentication: `Authorization: Bearer <key>` or `X-API-Key: <key>`. Public paths and
// CORS preflights bypass it. The superadmin key (when that surface is enabled) is recognised only
// on the superadmin routes, compared in constant time, and carries no tenant. With a throttle, each
// failure spends from the client address's bucket, read before a key costs a lookup or comparison.
import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import { sha256Bytes } from "../../lib/hash";
import { AppError, forbidden, unauthenticated } from "../../lib/errors";
import type { KeyAuthenticator } from "../../domain/keys/authenticate";
import type { AddressThrottle } from "../../domain/ratelimit/address-throttle";
import { UNKNOWN_ADDRESS } from "../client-address";
import { contextOf } from "../request-context";
import { requestPath } from "./0-request-target";

const PUBLIC_EXACT = new Set([
  "/",
  "/v1/health",
  "/v1/ready",
  "/v1/worker/health",
  "/metrics",
  "/openapi.json",
  "/docs",
  "/redoc",
  "/redoc/",
  "/graph",
  "/graph/",
]);
const PUBLIC_PREFIXES = ["/docs/", "/_assets/"];
export const SUPERADMIN_PATH = /^\/v1\/tenants\/(?!me\/)[^/]+\/budgets\/?$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC_EXACT.has(path) || PUBLIC_PREFIXES.some((p) => path.startsWith(p));
}

export function presentedKey(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthenticated("The Authorization header must be `Bearer <API key>`");
    return match[1]!;
  }
  const apiKey = headers.get("x-api-key");
  return apiKey === null ? null : apiKey.trim();
}

function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256Bytes(a), sha256Bytes(b));
}

/** The presented key; a malformed Authorization header is refused only after the address check. */
async function keyOrCheck(
  headers: Headers,
  checkAddress: () => Promise<void>,
): Promise<string | null> {
  try {
    return presentedKey(headers);
  } catch (error) {
    await checkAddress();
    throw error;
  }
}

export function authenticateLayer(
  authenticate: KeyAuthenticator,
  superadminKey: string | null,
  throttle: AddressThrottle | null,
) {
  return new Elysia({ name: "svc.authenticate" }).onRequest(async ({ request }) => {
    const path = requestPath(request); // the path the router dispatches (0-request-target.ts)
    if (request.method === "OPTIONS" || isPublicPath(path)) return;
    const ctx = contextOf(request)!;
    const address = ctx.clientAddress;
    // A request handed to the app in-process has no address to hold to account.
    const limiter = address === UNKNOWN_ADDRESS ? null : throttle;
    const checkAddress = async () => {
      await limiter?.check(address);
    };
    try {
      const key = await keyOrCheck(request.headers, checkAddress);
      if (superadminKey !== null && SUPERADMIN_PATH.test(path)) {
        await checkAddress();
        if (key === null) throw unauthenticated("The superadmin key is required as a bearer token");
        if (!sameSecret(key, superadminKey)) throw forbidden("This route needs the superadmin key");
        ctx.identity = { role: "superadmin", keyStart: key.slice(0, 6) };
        return;
      }
      if (key === null) {
        await checkAddress();
        throw unauthenticated(
          "An API key is required: send `Authorization: Bearer svc_sk_…` or `X-API-Key`",
        );
      }
      const identity = await authenticate(key, checkAddress);
      ctx.identity = { role: "tenant", ...identity };
    } catch (error) {
      const refused = error instanceof AppError && (error.status === 401 || error.status === 403);
      if (limiter && refused) await limiter.charge(address);
      throw error;
    }
  });
}
