// POST /v1/memories/recall: retrieve an agent's current memories by query with one strategy.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { executeRecall, planRecall } from "../../../domain/recall/recall";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../schemas/common";
import { recallBody, RecallResponse, toRecallInput } from "../../schemas/recall";

export const recallRoute = (deps: Deps) => new Elysia().post("/v1/memories/recall", async ({ request, body }) => {
  const actor = actorOf(request);
  const plan = await planRecall(deps, actor, toRecallInput(body));
  return executeRecall(deps, actor, plan, request.signal);
}, {
  parse: "json",
  body: recallBody(deps.config),
  response: { 200: RecallResponse, ...authedErrors(400, 413, 415, 501) },
  detail: {
    tags: ["Memories"],
    summary: "Recall memories by query",
    description: "Searches the agent's current (not forgotten, not expired) memories. `strategy` defaults to AUTO, "
      + "which routes by LLM when one is configured and by deterministic rules otherwise; the response says which strategy ran and why (`routing`). "
      + "GRAPH, TRIPLET, TRACE, ASK and CYPHER are not available in this build: pinning them answers 501 `strategy-unavailable`. "
      + "Each recall writes one audit row (operation `recall`) in the transaction that reads the results.",
  },
});
