// Memory tools: store, batch store, recall, forget, list, get, history. Each runs its catalog
// entry (src/operations/memories.ts, recall.ts), the same handler as its REST route.
import { catalogTool, type McpTool } from "../tool";

export const MEMORY_TOOLS: McpTool[] = [
  catalogTool(
    "store_memory",
    "Store one memory for an agent (POST /v1/memories). Returns the stored memory with its memory_id and version.",
  ),
  catalogTool(
    "store_memories",
    "Store many memories at once, all or nothing (POST /v1/memories/batch).",
  ),
  catalogTool(
    "recall",
    "Recall an agent's current memories by query (POST /v1/memories/recall). `strategy` picks the retrieval strategy (default AUTO); AUTO fuses several, and each result lists its `retrievers`. `fusion`, `rerank` and `context` are the same options as on the REST route (docs/recall.md).",
  ),
  catalogTool(
    "forget",
    "Forget memories (soft delete, history kept) by memory_id or memory_ids (POST /v1/memories/forget). Unknown ids are listed in not_found.",
  ),
  catalogTool(
    "list_memories",
    "List memories page by page (GET /v1/memories), newest first: one agent's (agent_id) or every agent's, filtered by memory_type, metadata equality, dataset_id, created/occurred ranges, include_forgotten. Pass next_cursor as cursor for the next page.",
  ),
  catalogTool(
    "get_memory",
    "Fetch the current version of one memory (GET /v1/memories/{memory_id}); a forgotten memory is an error `gone`.",
  ),
  catalogTool(
    "memory_history",
    "Every version of one memory, oldest first, forgotten ones included (GET /v1/memories/{memory_id}/history).",
  ),
];
