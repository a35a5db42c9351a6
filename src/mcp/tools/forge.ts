// Audit and Forge tools: audit query, graph query, distill, ingest, refine and feedback. Each is
// offered when its catalog entry's gate is on, so a gated-off feature is absent from tools/list as
// from OpenAPI.
import { recordFeedback } from "../../domain/feedback/record";
import { submitDistill } from "../../domain/forge/distill/submit";
import { requestRefine } from "../../domain/forge/refine/request";
import { submittedView, submitTextOrUrl } from "../../domain/ingest/submit";
import { distillBody } from "../../operations/schemas/distill";
import { IngestBody } from "../../operations/schemas/ingest";
import { feedbackBody, refineBody } from "../../operations/schemas/refine";
import { catalogTool, type McpTool } from "../tool";

export const FORGE_TOOLS: McpTool[] = [
  catalogTool(
    "audit_query",
    "Read the tenant's hash-chained audit log (GET /v1/audit), oldest first or newest first with order=desc; pass next_cursor as cursor for the next page.",
  ),
  {
    name: "distill",
    description:
      "Distill memories into the knowledge graph as an async job (POST /v1/distill); returns the job to poll.",
    inputSchema: (deps) => distillBody(deps.config),
    readOnly: false,
    run: ({ deps, actor }, input) =>
      submitDistill(deps, actor, { agentId: input.agent_id, memoryIds: input.memory_ids }),
  },
  catalogTool(
    "graph_query",
    "Nodes and edges of one agent's knowledge graph (GET /v1/graph/data): the most mentioned memos, or the subgraph `around` a memo, optionally `as_of` an event time.",
  ),
  {
    name: "ingest",
    description:
      "Ingest text or a URL into an agent's memories as an async job (POST /v1/ingest); give exactly one of text or url.",
    inputSchema: (deps) => IngestBody(deps.config),
    readOnly: false,
    run: async ({ deps, actor }, input) => submittedView(await submitTextOrUrl(deps, actor, input)),
  },
  {
    name: "refine",
    description:
      "Enqueue a refine run over the tenant's graph, one agent's or one dataset's part (POST /v1/refine).",
    inputSchema: () => refineBody,
    readOnly: false,
    run: ({ deps, actor }, input) => requestRefine(deps, actor, input),
  },
  {
    name: "feedback",
    description:
      "Give a -1 / 0 / +1 signal on a memory or a graph edge (POST /v1/feedback); refine's reweight pass applies it.",
    inputSchema: (deps) => feedbackBody(deps.config),
    readOnly: false,
    run: ({ deps, actor }, input) => recordFeedback(deps.db, actor, input),
  },
];
