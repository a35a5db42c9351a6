// Distill operations (DISTILL_ENABLED): enqueue a distill job over an agent's memories (also the
// MCP tool distill), and poll it.
import { submitDistill } from "../domain/forge/distill/submit";
import { readDistillJob } from "../domain/forge/distill/status";
import { type Operation, read, write } from "./operation";
import { DistillAccepted, distillBody, DistillStatusSchema, JobIdParams } from "./schemas/distill";

const distill = { gate: "distill" } as const;
const tags = ["Graph"];

export const DISTILL_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/distill", "forge:write", "distill", {
    ...distill,
    mcp: "distill",
    handler: {
      input: { from: "body", schema: distillBody },
      status: 202,
      output: DistillAccepted,
      errors: [400, 413, 415],
      docs: {
        tags,
        summary: "Distill memories into the graph (async job)",
        description:
          "Creates a distill job and returns 202 with its job_id; poll GET " +
          "/v1/distill/{job_id}. Idempotent over already-distilled memory versions: " +
          "running it again over the same memories changes nothing, restated facts reinforce " +
          "existing edges. See docs/graph.md.",
      },
      run: ({ deps, actor }, body) =>
        submitDistill(deps, actor, { agentId: body.agent_id, memoryIds: body.memory_ids }),
    },
  }),
  read("/v1/distill/:job_id", "memories:read", {
    ...distill,
    handler: {
      input: null,
      params: JobIdParams,
      output: DistillStatusSchema,
      errors: [404],
      docs: {
        tags,
        summary: "Poll a distill job",
        description:
          "State (queued, running, succeeded, failed, rejected), progress (memories done / " +
          "total), counts (memos created/reused, edges created/reinforced/superseded/retired), " +
          "the ids skipped and why, warnings and errors. Another tenant's job id is a 404.",
      },
      run: ({ deps, actor }, _, params) => readDistillJob(deps.db, actor, params.job_id),
    },
  }),
];
