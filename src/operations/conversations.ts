// Conversation operations: open, read, delete, append and list turns (sessions: sessions.ts).
import { appendTurn, readTurns } from "../domain/conversations/turns";
import {
  conversationView,
  deleteConversation,
  openConversation,
  readConversation,
} from "../domain/conversations/conversations";
import { type Operation, read, write } from "./operation";
import {
  AppendedTurn,
  AppendTurn,
  Conversation,
  ConversationParams,
  OpenConversation,
  TurnPage,
  TurnsQuery,
} from "./schemas/conversations";

const tags = ["Conversations"];

export const CONVERSATION_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/conversations", "memories:write", "conversation.open", {
    handler: {
      input: { from: "body", schema: () => OpenConversation },
      status: 201,
      output: Conversation,
      errors: [400, 413, 415],
      docs: { tags, summary: "Open a conversation" },
      run: ({ deps, actor }, body) => openConversation(deps.db, deps.config, actor, body),
    },
  }),
  read("/v1/conversations/:conversation_id", "memories:read", {
    handler: {
      input: null,
      params: ConversationParams,
      output: Conversation,
      errors: [404],
      docs: { tags, summary: "Read a conversation" },
      run: async ({ deps, actor }, _, params) =>
        conversationView(
          await readConversation(deps.db, actor, params.conversation_id),
          deps.config,
        ),
    },
  }),
  write("DELETE", "/v1/conversations/:conversation_id", "memories:write", "conversation.delete", {
    handler: {
      input: null,
      params: ConversationParams,
      output: Conversation,
      errors: [404, 409],
      docs: {
        tags,
        summary: "Soft-delete a conversation",
        description: "Deleting twice is a 409. Appending to a deleted conversation is a 410.",
      },
      run: ({ deps, actor }, _, params) =>
        deleteConversation(deps.db, deps.config, actor, params.conversation_id),
    },
  }),
  write("POST", "/v1/conversations/:conversation_id/turns", "memories:write", "conversation.turn", {
    handler: {
      input: { from: "body", schema: AppendTurn },
      params: ConversationParams,
      status: 201,
      output: AppendedTurn,
      errors: [400, 404, 410, 413, 415],
      docs: {
        tags,
        summary: "Append a turn",
        description:
          "The turn is stored as a memory of type `turn` for the conversation's agent (embedded, recallable, also after the conversation is deleted).",
      },
      run: ({ deps, actor }, body, params) => appendTurn(deps, actor, params.conversation_id, body),
    },
  }),
  read("/v1/conversations/:conversation_id/turns", "memories:read", {
    handler: {
      input: { from: "query", schema: () => TurnsQuery },
      params: ConversationParams,
      output: TurnPage,
      errors: [404],
      docs: { tags, summary: "List turns" },
      run: ({ deps, actor }, query, params) =>
        readTurns(deps, actor, params.conversation_id, query.after_turn ?? -1, query.limit ?? 50),
    },
  }),
];
