// CYPHER: the recall query is a read-only openCypher query (docs/cypher.md). It runs at plan time
// in its own READ ONLY tenant transaction; the recall transaction then loads, counts and audits the
// memories that ground the returned nodes and edges. The table itself is the response's
// graph.table.
import { agentHasGraph, groundingMemories } from "../../../data/queries/graph/grounding";
import { queryGraph, type GraphQueryResult } from "../../graph/cypher-query";
import type { RecallStrategy } from "../strategy";

export const cypherStrategy: RecallStrategy<GraphQueryResult> = {
  name: "CYPHER",
  description:
    "A read-only openCypher query (MATCH … WHERE … RETURN …) over the agent's knowledge graph; `params` fills its $parameters.",
  needsEmbedding: false,
  prepare(env, search) {
    return queryGraph(env.deps.db, env.deps.config, {
      orgId: env.orgId,
      agentId: search.filter.agentId,
      text: search.query,
      params: search.params,
      asOf: search.asOf,
    });
  },
  async run(tx, search, table) {
    const grounded = await groundingMemories(
      tx,
      search.filter,
      table.edgeIds,
      table.memoIds,
      search.topK,
    );
    const notices = [...table.notices];
    if (
      table.rows.length === 0 &&
      !(await agentHasGraph(tx, search.filter.orgId, search.filter.agentId))
    ) {
      notices.push("this agent has no graph yet: distill its memories first (POST /v1/distill)");
    }
    return {
      rows: grounded.map(({ groundedEdges, ...row }) =>
        groundedEdges.length > 0 ? { ...row, graph: { edge_ids: groundedEdges } } : row,
      ),
      note: `${table.rows.length} row${table.rows.length === 1 ? "" : "s"}; ${grounded.length} grounding memor${grounded.length === 1 ? "y" : "ies"}`,
      graph: {
        as_of: search.asOf,
        table: { columns: table.columns, rows: table.rows },
        ...(notices.length > 0 ? { notice: notices.join("; ") } : {}),
      },
    };
  },
};
