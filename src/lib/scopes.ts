// Key scopes: what a key may do. docs/keys.md lists which routes need which scope. The set is
// closed (sql/0005_api_key_scopes.sql and 0450 check it too); a new scope needs a migration that
// grants it to full keys.
import { insufficientScope } from "./errors";

export const SCOPES = [
  "memories:read",
  "memories:write",
  "forge:write",
  "audit:read",
  "export",
  "admin",
] as const;
export type Scope = (typeof SCOPES)[number];

/** Boot, development and CLI keys, and every key that existed before scopes. */
export const FULL_ACCESS: readonly Scope[] = SCOPES;

/**
 * Parses a comma-separated scope list (svc keys create --scopes); throws naming the allowed set.
 */
export function parseScopeList(list: string): Scope[] {
  const names = list.split(",").map((s) => s.trim());
  const allowed = `allowed: ${SCOPES.join(", ")}`;
  if (names.some((s) => s === ""))
    throw new Error(`--scopes is a comma-separated list of one or more scopes (${allowed})`);
  const unknown = names.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new Error(
      `unknown scope${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} in --scopes (${allowed})`,
    );
  if (new Set(names).size !== names.length)
    throw new Error(`--scopes names a scope twice (${allowed})`);
  return normaliseScopes(names);
}

/** The scopes in `requested` that `granted` does not hold, in canonical order. */
export function scopesMissing(granted: readonly string[], requested: readonly string[]): Scope[] {
  const held = new Set(granted);
  return SCOPES.filter((s) => requested.includes(s) && !held.has(s));
}

/** Canonical order, no duplicates. */
export function normaliseScopes(scopes: readonly string[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s));
}

/** The one refusal for a missing scope, for REST routes and MCP tools alike. */
export function requireScope(held: readonly Scope[], needed: Scope, what: string): void {
  if (!held.includes(needed))
    throw insufficientScope(`${what} needs the key scope ${needed}, which this key does not hold`, [
      needed,
    ]);
}
