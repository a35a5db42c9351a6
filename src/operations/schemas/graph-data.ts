// GET /v1/graph/data: query parameters and the viewer-ready response (cytoscape-style ids).
import { t } from "elysia";
import { MEMO_TYPE_NAMES } from "../../domain/graph/memo-types";
import { NullableTimestamp, Timestamp } from "./common";

export const GraphDataQuery = t.Object(
  {
    agent_id: t.String({ minLength: 1, maxLength: 256 }),
    memo_type: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 32,
        description: `Only nodes of this type: ${MEMO_TYPE_NAMES.join(", ")}`,
      }),
    ),
    around: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 256,
        description:
          "A memo id (merged memos resolve to their survivor) or a name or alias: the subgraph within `depth` hops of it",
      }),
    ),
    depth: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: 5,
        description: "Hops from `around` (default 1, at most GRAPH_MAX_HOPS)",
      }),
    ),
    as_of: t.Optional(
      t.String({
        format: "date-time",
        description: "Event time: only edges valid at this instant (current and superseded ones)",
      }),
    ),
    include_expired: t.Optional(
      t.Boolean({
        description:
          "Also edges expired in system time (superseded, pruned, merged, source_revised); never those whose source was forgotten",
      }),
    ),
    limit: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: 500,
        description: "Most nodes (default 200, at most 500); edges are capped at 2,000",
      }),
    ),
  },
  { additionalProperties: false },
);

const SourceRef = t.Object(
  { memory_id: t.String(), version: t.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

const GraphNode = t.Object(
  {
    id: t.String({ description: "memo_id" }),
    memo_type: t.String(),
    name: t.String(),
    aliases: t.Array(t.String()),
    description: t.Union([t.String(), t.Null()]),
    ontology_uri: t.Union([t.String(), t.Null()]),
    origin: t.String({ description: "extracted, inferred, summary or user" }),
    mention_count: t.Integer({ description: "How many memory versions mention it" }),
    created_at: Timestamp,
    updated_at: Timestamp,
    source_memories: t.Array(SourceRef, {
      description: "Up to 5 grounding memory versions, newest first",
    }),
  },
  { additionalProperties: false },
);

const GraphEdge = t.Object(
  {
    id: t.String({ description: "edge_id" }),
    source: t.String({ description: "Subject memo id" }),
    target: t.String({ description: "Object memo id" }),
    relation: t.String({ description: "Canonical UPPER_SNAKE relation" }),
    fact: t.String(),
    weight: t.Number(),
    confidence: t.Number(),
    origin: t.String(),
    mention_count: t.Integer(),
    valid_at: NullableTimestamp,
    invalid_at: NullableTimestamp,
    observed_at: NullableTimestamp,
    created_at: Timestamp,
    expired_at: NullableTimestamp,
    expired_reason: t.Union([t.String(), t.Null()]),
    superseded_by: t.Union([t.String(), t.Null()]),
    source_memories: t.Array(SourceRef, { description: "Every grounding memory version" }),
  },
  {
    additionalProperties: false,
    description:
      "Event time: valid_at/invalid_at; system time: created_at/expired_at (+ expired_reason)",
  },
);

export const GraphDataResponse = t.Object(
  {
    agent_id: t.String(),
    as_of: NullableTimestamp,
    include_expired: t.Boolean(),
    around: t.Union([
      t.Object(
        { query: t.String(), memo_ids: t.Array(t.String()) },
        { additionalProperties: false },
      ),
      t.Null(),
    ]),
    nodes: t.Array(GraphNode),
    edges: t.Array(GraphEdge),
    truncated: t.Boolean({ description: "true when the node or edge cap cut the subgraph short" }),
    limits: t.Object({ nodes: t.Integer(), edges: t.Integer() }, { additionalProperties: false }),
    redactions: t.Integer({ description: "Values masked by RETRIEVAL_REDACTION_ENABLED" }),
  },
  { additionalProperties: false },
);
