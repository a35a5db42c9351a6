// GET /v1/agents: the tenant's agents with memory counts, first and last activity, graph presence.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { listAgents } from "../../../domain/memories/agents";
import { actorOf } from "../../request-context";
import { authedErrors, PageQuery } from "../../../operations/schemas/common";
import { AgentPage } from "../../../operations/schemas/memories-list";

export const listAgentsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/agents",
    ({ request, query }) => listAgents(deps.db, actorOf(request), query),
    {
      query: PageQuery,
      response: { 200: AgentPage, ...authedErrors() },
      detail: {
        tags: ["Memories"],
        summary: "List agents",
        description: [
          "Every agent that holds or held memories, by agent_id; counts of current and forgotten",
          "memories, when the first memory was stored and the last one stored, changed or",
          "forgotten, and whether a graph exists. Pass next_cursor as cursor for the next page.",
        ].join(" "),
      },
    },
  );
