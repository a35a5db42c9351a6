// GET /v1/graph/data: nodes and edges of one agent's graph for a viewer (always on).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { requireBoundedDate } from "../../../lib/validation/date-bound";
import { readGraphData } from "../../../domain/graph/graph-data";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { GraphDataQuery, GraphDataResponse } from "../../../operations/schemas/graph-data";

export const graphDataRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/graph/data",
    ({ request, query }) => {
      const asOf = requireBoundedDate(query.as_of, "query:/as_of");
      return readGraphData(deps, actorOf(request), {
        agentId: query.agent_id,
        memoType: query.memo_type,
        around: query.around,
        depth: query.depth,
        asOf,
        includeExpired: query.include_expired,
        limit: query.limit,
      });
    },
    {
      query: GraphDataQuery,
      response: { 200: GraphDataResponse, ...authedErrors() },
      detail: {
        tags: ["Graph"],
        summary: "Nodes and edges for the graph viewer",
        description:
          "One agent's graph (memos and edges built by distill). Without `around`: the most mentioned memos and the edges among them. " +
          "With `around` (a memo id or a name): the subgraph within `depth` hops. `as_of` reads the graph as it was at that event time; `include_expired` adds edges " +
          "retired in system time. Facts of forgotten memories never appear. An agent without a graph gets empty arrays. See docs/graph.md.",
      },
    },
  );
