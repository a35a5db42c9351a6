// Request and response types picked out of the generated OpenAPI types (src/openapi.d.ts).
import type { paths } from "./openapi.js";

type Method = "get" | "post" | "put" | "patch" | "delete";
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;

/** The JSON request body of an operation. */
export type Body<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends Method> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON body of the operation's success answer (200, 201 or 202). */
export type Ok<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: infer R }
    ? R extends { 200: { content: { "application/json": infer J } } }
      ? J
      : R extends { 201: { content: { "application/json": infer J } } }
        ? J
        : R extends { 202: { content: { "application/json": infer J } } }
          ? J
          : never
    : never;

export type StoreMemoryInput = Body<"/v1/memories", "post">;
export type Memory = Ok<"/v1/memories/{memory_id}", "get">;
export type RecallInput = Body<"/v1/memories/recall", "post">;
export type RecallResponse = Ok<"/v1/memories/recall", "post">;
export type RecallResult = RecallResponse["results"][number];
export type RecallSummary = Omit<RecallResponse, "results"> & { count: number };
export type RecallStreamEvent =
  | { type: "result"; result: RecallResult & { rank: number } }
  | { type: "summary"; summary: RecallSummary };
export type AuditRow = Ok<"/v1/audit", "get">["items"][number];
export type AuditQuery = Omit<Query<"/v1/audit", "get">, "cursor">;
/**
 * GET /v1/memories filters; `metadata` keys and values become `metadata.<key>=<value>` parameters.
 */
export type MemoryListQuery = Omit<Query<"/v1/memories", "get">, "metadata"> & {
  metadata?: Record<string, string | number | boolean | null>;
};
export type Agent = Ok<"/v1/agents", "get">["items"][number];
