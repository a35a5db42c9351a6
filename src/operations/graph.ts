// Graph operations, read always (a graph distilled or imported earlier stays readable with distill
// off): the viewer's nodes and edges (also the MCP tool graph_query), and the relation flags.
import { t } from "elysia";
import { readGraphData } from "../domain/graph/graph-data";
import { listRelations, putRelation } from "../domain/graph/relation-overrides";
import { requireBoundedDate } from "../lib/validation/date-bound";
import { type Operation, read, write } from "./operation";
import { GraphDataQuery, GraphDataResponse } from "./schemas/graph-data";
import { RelationSchema, RelationUpdateBody } from "./schemas/graph-relations";

const tags = ["Graph"];

export const GRAPH_OPERATIONS: readonly Operation[] = [
  read("/v1/graph/data", "memories:read", {
    mcp: "graph_query",
    handler: {
      input: { from: "query", schema: () => GraphDataQuery },
      output: GraphDataResponse,
      errors: [],
      docs: {
        tags,
        summary: "Nodes and edges for the graph viewer",
        description:
          "One agent's graph (memos and edges built by distill). Without `around`: the most mentioned memos and the edges among them. " +
          "With `around` (a memo id or a name): the subgraph within `depth` hops. `as_of` reads the graph as it was at that event time; `include_expired` adds edges " +
          "retired in system time. Facts of forgotten memories never appear. An agent without a graph gets empty arrays. See docs/graph.md.",
      },
      run: ({ deps, actor, field }, input) =>
        readGraphData(deps, actor, {
          agentId: input.agent_id,
          memoType: input.memo_type,
          around: input.around,
          depth: input.depth,
          // The years 1 to 9999, which TypeBox's date-time format cannot bound.
          asOf: requireBoundedDate(input.as_of, field("as_of")),
          includeExpired: input.include_expired,
          limit: input.limit,
        }),
    },
  }),
  read("/v1/graph/relations", "memories:read", {
    handler: {
      input: null,
      output: t.Object({ relations: t.Array(RelationSchema) }, { additionalProperties: false }),
      errors: [],
      docs: {
        tags,
        summary: "Relation flags in force",
        description:
          "The built-in relations with your overrides laid over them. Functional relations supersede: a new object closes the subject's older edge (docs/graph.md).",
      },
      run: async ({ deps, actor }) => ({ relations: await listRelations(deps.db, actor) }),
    },
  }),
  write("PUT", "/v1/graph/relations", "forge:write", "relation_type.update", {
    handler: {
      input: { from: "body", schema: () => RelationUpdateBody },
      output: RelationSchema,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Override a relation's flags",
        description:
          "Sets functional (and transitive, inverse) for one relation in your tenant; reset: true returns to the built-in flags. Applies to facts distilled afterwards. Audited as relation_type.update.",
      },
      run: ({ deps, actor }, input) => putRelation(deps.db, actor, input),
    },
  }),
];
