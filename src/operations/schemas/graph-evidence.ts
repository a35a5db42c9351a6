// The `graph` section of recall responses (src/data/graph-evidence.ts) as TypeBox schemas.
import { t } from "elysia";
import { NullableTimestamp, Timestamp } from "./common";

const NodeRef = t.Object(
  { memo_id: t.String(), name: t.String(), memo_type: t.String() },
  { additionalProperties: false },
);
const Source = t.Object(
  { memory_id: t.String(), version: t.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

export const GraphFactSchema = t.Object(
  {
    edge_id: t.String(),
    subject: NodeRef,
    relation: t.String(),
    object: NodeRef,
    fact: t.String(),
    weight: t.Number(),
    confidence: t.Number(),
    origin: t.String(),
    valid_at: NullableTimestamp,
    invalid_at: NullableTimestamp,
    created_at: Timestamp,
    expired_at: NullableTimestamp,
    expired_reason: t.Union([t.String(), t.Null()]),
    sources: t.Array(Source),
    score: t.Optional(t.Number()),
  },
  {
    additionalProperties: false,
    description:
      "An edge as a fact with both timelines: event time (valid_at/invalid_at) and system time (created_at/expired_at)",
  },
);

export const GraphPathSchema = t.Object(
  {
    memo_ids: t.Array(t.String()),
    edge_ids: t.Array(t.String()),
    hops: t.Integer({ minimum: 0 }),
    score: t.Number(),
    sources: t.Array(Source),
  },
  { additionalProperties: false },
);

const Citation = t.Object(
  {
    memory_id: t.String(),
    version: t.Integer({ minimum: 1 }),
    edge_id: t.Union([t.String(), t.Null()]),
    evidence: t.String(),
  },
  { additionalProperties: false },
);

export const GraphEvidenceSchema = t.Object(
  {
    notice: t.Optional(t.String()),
    as_of: NullableTimestamp,
    facts: t.Optional(t.Array(GraphFactSchema)),
    paths: t.Optional(t.Array(GraphPathSchema)),
    answer: t.Optional(
      t.Object(
        {
          text: t.String(),
          known: t.Boolean(),
          confidence: t.Number(),
          method: t.Union([t.Literal("local"), t.Literal("llm"), t.Literal("cypher")]),
          citations: t.Array(Citation),
          cypher: t.Optional(
            t.String({
              description:
                "ASK with an LLM: the CYPHER query the question was translated into (validated by the parser, run read-only)",
            }),
          ),
          dropped_claims: t.Optional(
            t.Array(
              t.Object({ text: t.String(), reason: t.String() }, { additionalProperties: false }),
              {
                description:
                  "ASK with an LLM: claims left out of the answer because they cited nothing or cited something not retrieved",
              },
            ),
          ),
        },
        {
          additionalProperties: false,
          description:
            'ASK: the answer; known=false is "I don\'t know" (no citations; the results are the best supporting memories)',
        },
      ),
    ),
    table: t.Optional(
      t.Object(
        { columns: t.Array(t.String()), rows: t.Array(t.Record(t.String(), t.Unknown())) },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Graph strategies only (GRAPH, TRIPLET, TRACE, ASK, CYPHER): what the graph answered, each item citing memory versions",
  },
);

export const ResultGraphLinkSchema = t.Object(
  {
    edge_ids: t.Array(t.String()),
    path: t.Optional(GraphPathSchema),
  },
  {
    additionalProperties: false,
    description: "Graph strategies: the edges (and path) that led to this memory",
  },
);
