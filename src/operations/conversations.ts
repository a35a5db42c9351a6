// Conversation operations: open, read, delete, append and list turns (sessions: sessions.ts).
import { type Operation, read, write } from "./operation";

export const CONVERSATION_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/conversations", "memories:write", "conversation.open"),
  read("/v1/conversations/:conversation_id", "memories:read"),
  write("DELETE", "/v1/conversations/:conversation_id", "memories:write", "conversation.delete"),
  write("POST", "/v1/conversations/:conversation_id/turns", "memories:write", "conversation.turn"),
  read("/v1/conversations/:conversation_id/turns", "memories:read"),
];
