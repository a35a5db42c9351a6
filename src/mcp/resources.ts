// MCP resources: a memory (current version) and a conversation (state and its first page of turns), read
// through the same domain functions as GET /v1/memories/{id} and GET /v1/conversations/{id}[/turns].
import type { Deps } from "../app/deps";
import type { Actor } from "../domain/actor";
import { conversationView, readConversation } from "../domain/conversations/conversations";
import { readTurns } from "../domain/conversations/turns";
import { validationFailed } from "../domain/errors";
import { getMemory } from "../domain/memories/read";

const TURNS_PAGE = 200;

export const RESOURCE_TEMPLATES = [
  { uriTemplate: "svc://memories/{memory_id}", name: "memory", title: "Memory", description: "The current version of one memory, as JSON", mimeType: "application/json" },
  { uriTemplate: "svc://conversations/{conversation_id}", name: "conversation", title: "Conversation", description: `A conversation's state and its first ${TURNS_PAGE} turns, as JSON`, mimeType: "application/json" },
];

const MEMORY_URI = /^svc:\/\/memories\/([^/?#]{1,128})$/;
const CONVERSATION_URI = /^svc:\/\/conversations\/([^/?#]{1,128})$/;

export async function readResource(deps: Deps, actor: Actor, uri: string): Promise<unknown> {
  const memory = MEMORY_URI.exec(uri);
  if (memory) return getMemory(deps.db, actor, decodeURIComponent(memory[1]!));
  const conversation = CONVERSATION_URI.exec(uri);
  if (conversation) {
    const id = decodeURIComponent(conversation[1]!);
    const view = conversationView(await readConversation(deps.db, actor, id), deps.config);
    const turns = await readTurns(deps, actor, id, -1, TURNS_PAGE);
    return { ...view, turns: turns.items, next_after_turn: turns.next_after_turn };
  }
  throw validationFailed([{ path: "uri", message: "must be svc://memories/{memory_id} or svc://conversations/{conversation_id}" }]);
}
