// What one operation of the API declares, once: method and path, the key scope it needs, the gate
// that mounts it, the audit operation it records and its MCP tool. http/ and mcp/ read these.
import type { Gates } from "../config/gates";
import type { AuditOperation } from "../domain/audit/record";
import type { Scope } from "../domain/keys/scopes";

/** `any`: every valid tenant key; `superadmin`: the superadmin key; `public`: no key at all. */
export type Access = Scope | "any" | "superadmin" | "public";

/** `always`, or the gate (src/config/gates.ts) whose route group the operation belongs to. */
export type GateName = "always" | Exclude<keyof Gates, "multimodal">;

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Operation = Readonly<{
  method: Method;
  /** The route template as Elysia mounts it (`:name` parameters). */
  path: string;
  access: Access;
  gate: GateName;
  /** The audit row the domain function writes, or null for an operation that records none. */
  audit: AuditOperation | null;
  /** The MCP tool that runs the same domain call, or null when MCP does not offer it. */
  mcp: string | null;
  /** Absent from OpenAPI: a page, an asset, a transport or a wrong-method answer. */
  hidden?: true;
}>;

/** A read (`GET`) and its defaults: always on, no audit, no MCP tool. */
export const read = (
  path: string,
  access: Access,
  more: Partial<Omit<Operation, "method" | "path" | "access">> = {},
): Operation => ({ method: "GET", path, access, gate: "always", audit: null, mcp: null, ...more });

/** A write with its audit operation; always on and without an MCP tool unless `more` says so. */
export const write = (
  method: Exclude<Method, "GET">,
  path: string,
  access: Access,
  audit: AuditOperation | null,
  more: Partial<Omit<Operation, "method" | "path" | "access" | "audit">> = {},
): Operation => ({ method, path, access, gate: "always", audit, mcp: null, ...more });
