// Memory tools: store, batch store, recall, forget, list, get, history. Each runs the domain calls
// of its REST route (src/http/routes/memories) with that route's body schema.
import { t } from "elysia";
import { forgetRequested } from "../../domain/memories/forget-request";
import { storeMemories } from "../../domain/memories/store";
import { listMemories } from "../../domain/memories/list";
import { getHistory, getMemory } from "../../domain/memories/read";
import { recall } from "../../domain/recall/recall";
import { batchBody, forgetBody, storeBody } from "../../operations/schemas/memories";
import { MemoryListQuery } from "../../operations/schemas/memories-list";
import { recallBody, toRecallInput } from "../../operations/schemas/recall";
import type { McpTool } from "../tool";

const Scalar = t.Union([t.String(), t.Number(), t.Boolean(), t.Null()]);
const ListInput = t.Object(
  {
    ...MemoryListQuery.properties,
    metadata: t.Optional(
      t.Record(t.String(), Scalar, {
        description:
          "Metadata equality: every key must hold that value (a string also matches the number, boolean or null it spells)",
      }),
    ),
  },
  { additionalProperties: false },
);

const MemoryIdInput = t.Object(
  { memory_id: t.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);

export const MEMORY_TOOLS: McpTool[] = [
  {
    name: "store_memory",
    description:
      "Store one memory for an agent (POST /v1/memories). Returns the stored memory with its memory_id and version.",
    inputSchema: (deps) => storeBody(deps.config),
    readOnly: false,
    run: async ({ deps, actor }, input) => {
      const [record] = await storeMemories(deps, actor, [input]);
      return record;
    },
  },
  {
    name: "store_memories",
    description: "Store many memories at once, all or nothing (POST /v1/memories/batch).",
    inputSchema: (deps) => batchBody(deps.config),
    readOnly: false,
    run: async ({ deps, actor }, input) => {
      const memories = await storeMemories(deps, actor, input.memories, {
        pathPrefix: "memories/",
        graphLater: true,
      });
      return { memories, count: memories.length };
    },
  },
  {
    name: "recall",
    description:
      "Recall an agent's current memories by query (POST /v1/memories/recall). `strategy` picks the retrieval strategy (default AUTO); AUTO fuses several, and each result lists its `retrievers`. `fusion`, `rerank` and `context` are the same options as on the REST route (docs/recall.md).",
    inputSchema: (deps) => recallBody(deps.config),
    readOnly: true,
    run: async ({ deps, actor, signal }, input) => {
      return recall(deps, actor, toRecallInput(input), signal);
    },
  },
  {
    name: "forget",
    description:
      "Forget memories (soft delete, history kept) by memory_id or memory_ids (POST /v1/memories/forget). Unknown ids are listed in not_found.",
    inputSchema: (deps) => forgetBody(deps.config),
    readOnly: false,
    run: async ({ deps, actor }, input) => {
      return forgetRequested(deps, actor, input);
    },
  },
  {
    name: "list_memories",
    description:
      "List memories page by page (GET /v1/memories), newest first: one agent's (agent_id) or every agent's, filtered by memory_type, metadata equality, dataset_id, created/occurred ranges, include_forgotten. Pass next_cursor as cursor for the next page.",
    inputSchema: () => ListInput,
    readOnly: true,
    run: ({ deps, actor }, { metadata, ...query }) =>
      listMemories(deps.db, actor, {
        ...query,
        metadata: Object.entries(metadata ?? {}).map(([key, value]) => [key, String(value)]),
      }),
  },
  {
    name: "get_memory",
    description:
      "Fetch the current version of one memory (GET /v1/memories/{memory_id}); a forgotten memory is an error `gone`.",
    inputSchema: () => MemoryIdInput,
    readOnly: true,
    run: ({ deps, actor }, input) => getMemory(deps.db, actor, input.memory_id),
  },
  {
    name: "memory_history",
    description:
      "Every version of one memory, oldest first, forgotten ones included (GET /v1/memories/{memory_id}/history).",
    inputSchema: () => MemoryIdInput,
    readOnly: true,
    run: async ({ deps, actor }, input) => ({
      memory_id: input.memory_id,
      versions: await getHistory(deps.db, actor, input.memory_id),
    }),
  },
];
