// Conversation and session operations: open, read, delete, append and list turns; start, read and
// end a session.
import { type Operation, read, write } from "./operation";

export const CONVERSATION_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/sessions", "memories:write", "session.start"),
  read("/v1/sessions/:session_id", "memories:read"),
  write("POST", "/v1/sessions/:session_id/end", "memories:write", "session.end"),
  write("POST", "/v1/conversations", "memories:write", "conversation.open"),
  read("/v1/conversations/:conversation_id", "memories:read"),
  write("DELETE", "/v1/conversations/:conversation_id", "memories:write", "conversation.delete"),
  write("POST", "/v1/conversations/:conversation_id/turns", "memories:write", "conversation.turn"),
  read("/v1/conversations/:conversation_id/turns", "memories:read"),
];
