// Memory operations: store, batch, forget, list, get, history, patch, recall (and its stream), the
// agents list, and the 405 answers on the POST-only paths.
import { t } from "elysia";
import { listAgents } from "../domain/memories/agents";
import { forgetRequested } from "../domain/memories/forget-request";
import { listMemories } from "../domain/memories/list";
import { getHistory, getMemory } from "../domain/memories/read";
import { storeMemories } from "../domain/memories/store";
import { patchMemory } from "../domain/memories/update";
import { type Operation, read, write } from "./operation";
import { RECALL_OPERATIONS } from "./recall";
import { PageQuery } from "./schemas/common";
import {
  batchBody,
  ForgetResponse,
  forgetBody,
  Memory,
  MemoryIdParams,
  patchBody,
  storeBody,
} from "./schemas/memories";
import {
  AgentPage,
  MEMORY_LIST_PARAMS,
  MemoryListQuery,
  MemoryPage,
  metadataFilters,
} from "./schemas/memories-list";

const tags = ["Memories"];

/** Paths served by POST only: GET and PATCH there answer 405 rather than reach a memory id. */
export const POST_ONLY_MEMORY_PATHS: readonly string[] = [
  "/v1/memories/recall",
  "/v1/memories/recall/stream",
  "/v1/memories/batch",
  "/v1/memories/forget",
];

const Scalar = t.Union([t.String(), t.Number(), t.Boolean(), t.Null()]);

/** MCP's listing arguments: metadata equality as one object, which a query string spells apart. */
const ListArguments = t.Object(
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

/** MCP names the memory in its arguments, REST in its path. */
const memoryIdArguments = {
  schema: () =>
    t.Object(
      { memory_id: t.String({ minLength: 1, maxLength: 128 }) },
      { additionalProperties: false },
    ),
  split: (args: { memory_id: string }) => ({ input: undefined, params: args }),
};

const listDescription = [
  "One row per memory (its current version; with include_forgotten also forgotten ones, as",
  "their last version), newest created first (order=asc: oldest first), ties broken by",
  "memory_id. Filters: agent_id, memory_type, dataset_id, created_after/created_before,",
  "occurred_after/occurred_before, and metadata equality as `metadata.<key>=<value>`",
  "(repeat for more keys, all must match; the value matches that string, or the number,",
  "boolean or null it spells). Any other parameter is a 422. Pass next_cursor as cursor for",
  "the next page. See docs/memories.md.",
].join(" ");

export const MEMORY_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/memories", "memories:write", "store", {
    mcp: "store_memory",
    handler: {
      input: { from: "body", schema: storeBody },
      status: 201,
      output: Memory,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Store a memory",
        description:
          "Without memory_type the memory is `semantic`, or chosen by the documented rules when MEMORY_TIER_AUTO_ROUTE=true. A provider outage never fails the store: the memory comes back with embedding_status `pending`.",
      },
      run: async ({ deps, actor }, body) => (await storeMemories(deps, actor, [body]))[0],
    },
  }),
  write("POST", "/v1/memories/batch", "memories:write", "store", {
    mcp: "store_memories",
    handler: {
      input: { from: "body", schema: batchBody },
      status: 201,
      output: t.Object(
        { memories: t.Array(Memory), count: t.Integer() },
        { additionalProperties: false },
      ),
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Store many memories (all-or-nothing)",
        description:
          "Every item is validated first; one invalid item rejects the whole batch with 422 naming `memories/<index>/<field>`, and nothing is stored. Results are in request order.",
      },
      run: async ({ deps, actor }, body) => {
        const memories = await storeMemories(deps, actor, body.memories, {
          pathPrefix: "memories/",
          graphLater: true,
        });
        return { memories, count: memories.length };
      },
    },
  }),
  write("POST", "/v1/memories/forget", "memories:write", "forget", {
    mcp: "forget",
    handler: {
      input: { from: "body", schema: forgetBody },
      output: ForgetResponse,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Forget memories (soft delete)",
        description:
          "Sets valid_to and deleted_at on the current version; history stays readable. Ids that are unknown, another tenant's or already forgotten are listed in not_found (the call is idempotent).",
      },
      run: ({ deps, actor }, body) => forgetRequested(deps, actor, body),
    },
  }),
  read("/v1/memories", "memories:read", {
    mcp: "list_memories",
    handler: {
      input: { from: "query", schema: () => MemoryListQuery },
      fromUrl: (url, query) => ({ ...query, metadata: metadataFilters(url, MEMORY_LIST_PARAMS) }),
      tool: {
        schema: () => ListArguments,
        split: ({ metadata, ...query }) => ({
          input: {
            ...query,
            metadata: Object.entries(metadata ?? {}).map(([key, value]) => [key, String(value)]),
          },
          params: {},
        }),
      },
      output: MemoryPage,
      errors: [],
      docs: {
        tags,
        summary: "List memories, filtered, page by page",
        description: listDescription,
      },
      run: ({ deps, actor }, input) => listMemories(deps.db, actor, input),
    },
  }),
  read("/v1/agents", "memories:read", {
    handler: {
      input: { from: "query", schema: () => PageQuery },
      output: AgentPage,
      errors: [],
      docs: {
        tags,
        summary: "List agents",
        description: [
          "Every agent that holds or held memories, by agent_id; counts of current and forgotten",
          "memories, when the first memory was stored and the last one stored, changed or",
          "forgotten, and whether a graph exists. Pass next_cursor as cursor for the next page.",
        ].join(" "),
      },
      run: ({ deps, actor }, query) => listAgents(deps.db, actor, query),
    },
  }),
  read("/v1/memories/:memory_id", "memories:read", {
    mcp: "get_memory",
    handler: {
      input: null,
      params: MemoryIdParams,
      tool: memoryIdArguments,
      output: Memory,
      errors: [404, 410],
      docs: { tags, summary: "Fetch one memory (current version)" },
      run: ({ deps, actor }, _, params) => getMemory(deps.db, actor, params.memory_id),
    },
  }),
  read("/v1/memories/:memory_id/history", "memories:read", {
    mcp: "memory_history",
    handler: {
      input: null,
      params: MemoryIdParams,
      tool: memoryIdArguments,
      output: t.Object(
        { memory_id: t.String(), versions: t.Array(Memory) },
        { additionalProperties: false },
      ),
      errors: [404],
      docs: {
        tags,
        summary: "Version history, oldest first",
        description:
          "Each version carries valid_from and valid_to; the current one has valid_to null. A forgotten memory keeps its history; its last version has deleted_at set.",
      },
      run: async ({ deps, actor }, _, params) => ({
        memory_id: params.memory_id,
        versions: await getHistory(deps.db, actor, params.memory_id),
      }),
    },
  }),
  write("PATCH", "/v1/memories/:memory_id", "memories:write", "update", {
    handler: {
      input: { from: "body", schema: patchBody },
      params: MemoryIdParams,
      output: Memory,
      errors: [400, 404, 410, 413, 415],
      docs: {
        tags,
        summary: "Update a memory (creates the next version)",
        description:
          "Closes the current version (valid_to = now) and inserts version + 1 in one transaction; metadata is replaced, not merged. A forgotten or expired memory answers 410.",
      },
      run: ({ deps, actor }, body, params) => patchMemory(deps, actor, params.memory_id, body),
    },
  }),
  ...RECALL_OPERATIONS,
  ...POST_ONLY_MEMORY_PATHS.flatMap((path): Operation[] => [
    read(path, "memories:read", { hidden: true }),
    write("PATCH", path, "memories:write", null, { hidden: true }),
  ]),
];
