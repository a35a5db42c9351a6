// What one operation of the API declares, once: method and path, the key scope it needs, the gate
// that mounts it, the audit operation it records, its MCP tool and (once its area has moved here)
// its handler: input and output schemas, OpenAPI text and the domain call. http/ and mcp/ read
// these.
import type { TSchema } from "@sinclair/typebox";
import type { Deps } from "./deps";
import type { Gates } from "../config/gates";
import type { Config } from "../config/schema";
import type { Actor } from "../domain/actor";
import type { AuditOperation } from "../domain/audit/record";
import type { Scope } from "../lib/scopes";
import type { authedErrors } from "./schemas/common";

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
  /** The route's handler; absent while the area's handlers still live in src/http/routes/. */
  handler?: Handler;
}>;

/** One call of an operation, the same for a REST request and an MCP tool call. */
export type Call = {
  deps: Deps;
  /** The calling tenant; reading it for a superadmin key is a 403 (that key has no tenant). */
  actor: Actor;
  /** Who calls, for a `superadmin` entry, whose caller has no tenant and so no actor. */
  caller: { role: "tenant" | "superadmin" | undefined; requestId: string | null };
  signal: AbortSignal;
  /** The calling key's scopes (creating a key checks its subset rule against them). */
  scopes: readonly Scope[];
  /**
   * How the transport names an input field in a 422: `query:/as_of` over REST, `as_of` over MCP.
   */
  field: (name: string) => string;
};

/** One server-sent event of a streaming operation. */
export type StreamEvent = Readonly<{ event: string; data: unknown; id?: number }>;

/**
 * A response that is a server-sent-events stream, not one JSON value: `run` returns the events
 * (`(signal) => AsyncIterable<StreamEvent>`, produced once the stream is open). REST sends the
 * comment `opening` at once, then the events, or an `error` event with the problem of a throw.
 * OpenAPI shows `description` by hand, since a JSON response schema cannot describe a stream.
 */
export type EventStream = Readonly<{ eventStream: { opening: string; description: string } }>;

export type Handler = Readonly<{
  /** Where REST reads the input (query or JSON body); an MCP tool takes the same schema. */
  input: { from: "query" | "body"; schema: (config: Config) => TSchema } | null;
  /**
   * REST's input when the query string says more than a schema can (a repeated parameter, or
   * `prefix.<key>` ones): maps the URL and the schema-checked query onto run's input.
   */
  fromUrl?: (url: string, query: any) => unknown;
  /**
   * A body no schema can read (multipart/form-data): left unparsed, it reaches run as the input,
   * the Request itself, for the domain to stream; `openapi` is its OpenAPI requestBody. Its entry
   * has `input: null` and no MCP tool.
   */
  rawBody?: { openapi: { required: boolean; content: Record<string, { schema: object }> } };
  /** The path parameters' schema, for a path with `:name` parts. */
  params?: TSchema;
  /**
   * MCP's arguments when they are not REST's input (path parameters become arguments, or a shape a
   * query string cannot carry): their schema, and how they split into run's input and params.
   */
  tool?: Readonly<{
    schema: (config: Config) => TSchema;
    split: (args: any) => { input: unknown; params: unknown };
  }>;
  /** The success status (200 unless given) and its response. */
  status?: 201 | 202;
  output: TSchema | EventStream;
  /** Error statuses beyond those every authenticated route answers, for OpenAPI. */
  errors: Parameters<typeof authedErrors>;
  docs: {
    tags: string[];
    summary: string;
    description?: string;
    /** OpenAPI's security requirement, where it is not the tenant key's. */
    security?: Array<Record<string, string[]>>;
  };
  /**
   * Input and path parameters arrive validated by their schemas: run maps them onto the domain
   * call.
   */
  run: (call: Call, input: any, params: any) => unknown;
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
