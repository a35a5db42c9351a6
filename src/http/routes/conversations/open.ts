// POST /v1/conversations: open a conversation for an agent.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { openConversation } from "../../../domain/conversations/conversations";
import { checkMetadata } from "../../../domain/metadata";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Conversation, OpenConversation } from "../../../operations/schemas/conversations";

export const openConversationRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/conversations",
    async ({ request, body, set }) => {
      const actor = actorOf(request);
      const metadata = checkMetadata(deps.config, body.metadata);
      const conversation = await openConversation(deps.db, deps.config, actor, {
        agent_id: body.agent_id,
        title: body.title,
        metadata,
      });
      set.status = 201;
      return conversation;
    },
    {
      parse: "json",
      body: OpenConversation,
      response: { 201: Conversation, ...authedErrors(400, 413, 415) },
      detail: { tags: ["Conversations"], summary: "Open a conversation" },
    },
  );
