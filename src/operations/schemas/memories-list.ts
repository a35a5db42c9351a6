// Query and response shapes for GET /v1/memories (listing) and GET /v1/agents.
import { t } from "elysia";
import { validationFailed } from "../../lib/errors";
import { MEMORY_TYPES } from "../../domain/memories/types";
import { NullableTimestamp, PageQuery, Timestamp } from "./common";
import { Memory } from "./memories";

const Instant = (what: string) =>
  t.Optional(
    t.String({
      minLength: 10,
      maxLength: 64,
      description: `${what}; ISO 8601 date (UTC midnight) or date-time`,
    }),
  );

export const MemoryListQuery = t.Object(
  {
    agent_id: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 256,
        description: "One agent; omitted: every agent",
      }),
    ),
    memory_type: t.Optional(t.Union(MEMORY_TYPES.map((m) => t.Literal(m)))),
    dataset_id: t.Optional(t.String({ minLength: 1, maxLength: 256 })),
    created_after: Instant("Inclusive lower bound on created_at"),
    created_before: Instant("Exclusive upper bound on created_at"),
    occurred_after: Instant("Inclusive lower bound on occurred_at (event time)"),
    occurred_before: Instant("Exclusive upper bound on occurred_at (event time)"),
    include_forgotten: t.Optional(
      t.Boolean({
        description: "Also list forgotten memories (last version, deleted_at set), as history does",
      }),
    ),
    order: t.Optional(
      t.Union([t.Literal("desc"), t.Literal("asc")], {
        description: "desc (default): newest created first; asc: oldest first. Cursors keep it",
      }),
    ),
    ...PageQuery.properties,
  },
  { additionalProperties: true },
);

export const MemoryPage = t.Object(
  {
    items: t.Array(Memory),
    next_cursor: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: false },
);

export const Agent = t.Object(
  {
    agent_id: t.String(),
    memories: t.Integer({ minimum: 0, description: "Current, unexpired memories" }),
    forgotten: t.Integer({ minimum: 0, description: "Forgotten memories (history kept)" }),
    first_activity_at: Timestamp,
    last_activity_at: NullableTimestamp,
    has_graph: t.Boolean({ description: "Whether distill has built graph memos for this agent" }),
  },
  { additionalProperties: false },
);

export const AgentPage = t.Object(
  {
    items: t.Array(Agent),
    next_cursor: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: false },
);

const METADATA_PREFIX = "metadata.";

/**
 * The `metadata.<key>=<value>` parameters of a listing URL (their bounds are the domain's). Any
 * other parameter the schema does not name is a 422, so a misspelt filter never lists everything.
 */
export function metadataFilters(
  url: string,
  known: readonly string[],
): Array<[key: string, value: string]> {
  const params = new URL(url).searchParams;
  const filters: Array<[string, string]> = [];
  for (const name of new Set(params.keys())) {
    if (!name.startsWith(METADATA_PREFIX)) {
      if (known.includes(name)) continue;
      throw validationFailed([{ path: `/${name}`, message: "is not a known parameter" }]);
    }
    const values = params.getAll(name);
    if (values.length > 1) {
      throw validationFailed([{ path: `/${name}`, message: "may be given once" }]);
    }
    filters.push([name.slice(METADATA_PREFIX.length), values[0]!]);
  }
  return filters;
}

export const MEMORY_LIST_PARAMS = Object.keys(MemoryListQuery.properties);
