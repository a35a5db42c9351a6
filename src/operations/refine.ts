// Refine operations (REFINE_ENABLED): feedback on a memory or an edge, and refine runs over the
// graph; feedback and starting a run are also MCP tools.
import { recordFeedback } from "../domain/feedback/record";
import { requestRefine } from "../domain/forge/refine/request";
import { getRefineStatus } from "../domain/forge/refine/status";
import { type Operation, read, write } from "./operation";
import {
  Feedback,
  feedbackBody,
  refineBody,
  RefineJobParams,
  RefineQueued,
  RefineStatus,
  RefineStatusQuery,
} from "./schemas/refine";

const refine = { gate: "refine" } as const;
const tags = ["Refine"];

export const REFINE_OPERATIONS: readonly Operation[] = [
  // Applied by refine's reweight pass.
  write("POST", "/v1/feedback", "memories:write", "feedback", {
    ...refine,
    mcp: "feedback",
    handler: {
      input: { from: "body", schema: feedbackBody },
      status: 201,
      output: Feedback,
      errors: [400, 404, 410, 413, 415],
      docs: {
        tags,
        summary: "Give feedback on a memory or a graph edge",
        description:
          "Stored pending; nothing changes until a refine run's reweight pass blends it in " +
          "(edge weight, memory importance; docs/refine.md). Unknown or another tenant's " +
          "targets answer 404; a forgotten memory or an expired edge 410.",
      },
      run: ({ deps, actor }, body) => recordFeedback(deps.db, actor, body),
    },
  }),
  // Over the caller's graph, or one agent's, or one dataset's part.
  write("POST", "/v1/refine", "forge:write", "refine", {
    ...refine,
    mcp: "refine",
    handler: {
      input: { from: "body", schema: () => refineBody },
      status: 202,
      output: RefineQueued,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Enqueue a refine run",
        description:
          "Passes run in the order dedupe, infer, summarize, reweight, prune; one run per " +
          "tenant at a time (a second one waits). Poll GET /v1/refine/{job_id}. See " +
          "docs/refine.md for each pass and its thresholds.",
      },
      run: ({ deps, actor }, body) => requestRefine(deps, actor, body),
    },
  }),
  // State, per-pass counts and durations, and its changes (paginated).
  read("/v1/refine/:job_id", "memories:read", {
    ...refine,
    handler: {
      input: { from: "query", schema: () => RefineStatusQuery },
      params: RefineJobParams,
      output: RefineStatus,
      errors: [404],
      docs: {
        tags,
        summary: "Poll a refine run",
        description:
          "States: queued → running → succeeded | failed (rejected when REFINE_ENABLED is off " +
          "on the worker). changes lists what the run changed (a dry run: what it would " +
          "change), oldest first, each with its reason; pass changes.next_cursor as cursor for " +
          "the next page.",
      },
      run: ({ deps, actor }, query, params) =>
        getRefineStatus(deps.db, actor, params.job_id, query),
    },
  }),
];
