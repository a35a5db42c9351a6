// POST /v1/distill: enqueue a distill job over some of an agent's memories (DISTILL_ENABLED).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { submitDistill } from "../../../domain/forge/distill/submit";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { distillBody, DistillAccepted } from "../../../operations/schemas/distill";

export const createDistillRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/distill",
    async ({ request, body, set }) => {
      const accepted = await submitDistill(deps, actorOf(request), {
        agentId: body.agent_id,
        memoryIds: body.memory_ids,
      });
      set.status = 202;
      return accepted;
    },
    {
      parse: "json",
      body: distillBody(deps.config),
      response: { 202: DistillAccepted, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Graph"],
        summary: "Distill memories into the graph (async job)",
        description:
          "Creates a distill job and returns 202 with its job_id; poll GET /v1/distill/{job_id}. Idempotent over already-distilled memory versions: " +
          "running it again over the same memories changes nothing, restated facts reinforce existing edges. See docs/graph.md.",
      },
    },
  );
