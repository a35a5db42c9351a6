// GET /v1/conversations/{conversation_id}: metadata and state (deleted conversations stay
// readable).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { conversationView, readConversation } from "../../../domain/conversations/conversations";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Conversation, ConversationParams } from "../../../operations/schemas/conversations";

export const getConversationRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/conversations/:conversation_id",
    async ({ request, params }) =>
      conversationView(
        await readConversation(deps.db, actorOf(request), params.conversation_id),
        deps.config,
      ),
    {
      params: ConversationParams,
      response: { 200: Conversation, ...authedErrors(404) },
      detail: { tags: ["Conversations"], summary: "Read a conversation" },
    },
  );
