// Memory operations: store, batch, forget, list, get, history, patch, recall (and its stream), the
// agents list, and the 405 answers on the POST-only paths.
import { type Operation, read, write } from "./operation";

/** Paths served by POST only: GET and PATCH there answer 405 rather than reach a memory id. */
export const POST_ONLY_MEMORY_PATHS: readonly string[] = [
  "/v1/memories/recall",
  "/v1/memories/recall/stream",
  "/v1/memories/batch",
  "/v1/memories/forget",
];

export const MEMORY_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/memories", "memories:write", "store", { mcp: "store_memory" }),
  write("POST", "/v1/memories/batch", "memories:write", "store", { mcp: "store_memories" }),
  write("POST", "/v1/memories/forget", "memories:write", "forget", { mcp: "forget" }),
  read("/v1/memories", "memories:read", { mcp: "list_memories" }),
  read("/v1/agents", "memories:read"),
  read("/v1/memories/:memory_id", "memories:read", { mcp: "get_memory" }),
  read("/v1/memories/:memory_id/history", "memories:read", { mcp: "memory_history" }),
  write("PATCH", "/v1/memories/:memory_id", "memories:write", "update"),
  // Recall reads: a POST that needs only memories:read.
  write("POST", "/v1/memories/recall", "memories:read", "recall", { mcp: "recall" }),
  write("POST", "/v1/memories/recall/stream", "memories:read", "recall"),
  ...POST_ONLY_MEMORY_PATHS.flatMap((path): Operation[] => [
    read(path, "memories:read", { hidden: true }),
    write("PATCH", path, "memories:write", null, { hidden: true }),
  ]),
];
