// DELETE /v1/conversations/{conversation_id}: soft delete; turns stay listable and recallable.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { deleteConversation } from "../../../domain/conversations/conversations";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Conversation, ConversationParams } from "../../../operations/schemas/conversations";

export const deleteConversationRoute = (deps: Deps) =>
  new Elysia().delete(
    "/v1/conversations/:conversation_id",
    ({ request, params }) =>
      deleteConversation(deps.db, deps.config, actorOf(request), params.conversation_id),
    {
      params: ConversationParams,
      response: { 200: Conversation, ...authedErrors(404, 409) },
      detail: {
        tags: ["Conversations"],
        summary: "Soft-delete a conversation",
        description: "Deleting twice is a 409. Appending to a deleted conversation is a 410.",
      },
    },
  );
