// POST /v1/feedback: record a -1 / 0 / +1 signal on a memory or a graph edge (applied by refine's
// reweight pass).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { recordFeedback } from "../../../domain/feedback/record";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Feedback, feedbackBody } from "../../../operations/schemas/refine";

export const feedbackRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/feedback",
    async ({ request, body, set }) => {
      const record = await recordFeedback(deps.db, actorOf(request), body);
      set.status = 201;
      return record;
    },
    {
      parse: "json",
      body: feedbackBody(deps.config),
      response: { 201: Feedback, ...authedErrors(400, 404, 410, 413, 415) },
      detail: {
        tags: ["Refine"],
        summary: "Give feedback on a memory or a graph edge",
        description:
          "Stored pending; nothing changes until a refine run's reweight pass blends it in (edge weight, memory importance; docs/refine.md). Unknown or another tenant's targets answer 404; a forgotten memory or an expired edge 410.",
      },
    },
  );
