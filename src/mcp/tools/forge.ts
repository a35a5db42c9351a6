// Audit and Forge tools: audit query, graph query, distill, ingest, refine and feedback. Each runs
// its catalog entry (the REST route's schema and domain call) and is offered when that entry's gate
// is on, so a gated-off feature is absent from tools/list as from OpenAPI.
import { catalogTool, type McpTool } from "../tool";

export const FORGE_TOOLS: McpTool[] = [
  catalogTool(
    "audit_query",
    "Read the tenant's hash-chained audit log (GET /v1/audit), oldest first or newest first " +
      "with order=desc; pass next_cursor as cursor for the next page.",
  ),
  catalogTool(
    "distill",
    "Distill memories into the knowledge graph as an async job (POST /v1/distill); returns the " +
      "job to poll.",
  ),
  catalogTool(
    "graph_query",
    "Nodes and edges of one agent's knowledge graph (GET /v1/graph/data): the most mentioned " +
      "memos, or the subgraph `around` a memo, optionally `as_of` an event time.",
  ),
  catalogTool(
    "ingest",
    "Ingest text or a URL into an agent's memories as an async job (POST /v1/ingest); give " +
      "exactly one of text or url.",
  ),
  catalogTool(
    "refine",
    "Enqueue a refine run over the tenant's graph, one agent's or one dataset's part (POST " +
      "/v1/refine).",
  ),
  catalogTool(
    "feedback",
    "Give a -1 / 0 / +1 signal on a memory or a graph edge (POST /v1/feedback); refine's " +
      "reweight pass applies it.",
  ),
];
