// Per-request state shared by the pipeline layers and handlers, keyed by the Request object.
import type { Actor } from "../domain/actor";
import { forbidden, unauthenticated } from "../lib/errors";
import type { Scope } from "../lib/scopes";

export type Identity =
  | { role: "tenant"; orgId: string; keyId: string; keyStart: string; scopes: readonly Scope[] }
  | { role: "superadmin"; keyStart: string };

export type RequestContext = {
  requestId: string;
  startedAt: number;
  route?: string;
  /** Who is throttled before authentication (client-address.ts). */
  clientAddress: string;
  identity?: Identity;
  /** X-RateLimit-* headers to put on the response, whatever its status. */
  rateHeaders?: Record<string, string>;
};

const contexts = new WeakMap<Request, RequestContext>();

export function attachContext(request: Request, context: RequestContext): void {
  contexts.set(request, context);
}

export function contextOf(request: Request): RequestContext | undefined {
  return contexts.get(request);
}

/**
 * The scopes of the calling tenant key (the key creation route checks the subset rule against
 * them).
 */
export function scopesOf(request: Request): readonly Scope[] {
  const identity = contexts.get(request)?.identity;
  return identity?.role === "tenant" ? identity.scopes : [];
}

/** The tenant actor of an authenticated request; superadmin keys carry no tenant. */
export function actorOf(request: Request): Actor {
  const ctx = contexts.get(request);
  const identity = ctx?.identity;
  if (!identity) throw unauthenticated("An API key is required");
  if (identity.role !== "tenant")
    throw forbidden("The superadmin key is not bound to a tenant; use a tenant API key");
  return { orgId: identity.orgId, keyId: identity.keyId, requestId: ctx.requestId, role: "tenant" };
}
