// The knowledge graph: distill batch sizes and caps, and the bounds every graph traversal runs
// under.
import { Type as T } from "@sinclair/typebox";

export const graphSection = {
  DISTILL_MAX_MEMORY_IDS: T.Integer({
    default: 1000,
    minimum: 1,
    maximum: 10000,
    description: "Most memory_ids one POST /v1/distill accepts (more is a 422)",
  }),
  DISTILL_BATCH_SIZE: T.Integer({
    default: 16,
    minimum: 1,
    maximum: 200,
    description:
      "Memories extracted and written per distill transaction (a kill -9 loses at most one batch of work)",
  }),
  GRAPH_MAX_HOPS: T.Integer({
    default: 3,
    minimum: 1,
    maximum: 5,
    description: "Most hops a graph traversal (GRAPH, TRACE paths, graph/data depth) may take",
  }),
  GRAPH_FANOUT: T.Integer({
    default: 20,
    minimum: 1,
    maximum: 500,
    description:
      "Edges followed per node and direction at each hop, heaviest first: a hub cannot explode a query",
  }),
  GRAPH_MAX_ROWS: T.Integer({
    default: 5000,
    minimum: 100,
    maximum: 100000,
    description:
      "Cap on the rows (partial paths) of one TRACE path search (GRAPH keeps a beam instead)",
  }),
};
