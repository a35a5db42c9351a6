// MCP resources: a memory (current version), the agents, an agent's newest memories, and a
// conversation (state and its first page of turns), read through the same domain functions as their
// REST routes.
import type { Deps } from "../operations/deps";
import type { Actor } from "../domain/actor";
import { conversationView, readConversation } from "../domain/conversations/conversations";
import { readTurns } from "../domain/conversations/turns";
import { validationFailed } from "../lib/errors";
import { listAgents } from "../domain/memories/agents";
import { listMemories } from "../domain/memories/list";
import { getMemory } from "../domain/memories/read";

const TURNS_PAGE = 200;
const LIST_PAGE = 200;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "svc://memories/{memory_id}",
    name: "memory",
    title: "Memory",
    description: "The current version of one memory, as JSON",
    mimeType: "application/json",
  },
  {
    uriTemplate: "svc://agents",
    name: "agents",
    title: "Agents",
    description: `The first ${LIST_PAGE} agents with memory counts, activity and graph presence (GET /v1/agents), as JSON`,
    mimeType: "application/json",
  },
  {
    uriTemplate: "svc://agents/{agent_id}/memories",
    name: "agent-memories",
    title: "Agent memories",
    description: `An agent's ${LIST_PAGE} newest memories (GET /v1/memories?agent_id=…), as JSON; the list_memories tool pages further`,
    mimeType: "application/json",
  },
  {
    uriTemplate: "svc://conversations/{conversation_id}",
    name: "conversation",
    title: "Conversation",
    description: `A conversation's state and its first ${TURNS_PAGE} turns, as JSON`,
    mimeType: "application/json",
  },
];

const MEMORY_URI = /^svc:\/\/memories\/([^/?#]{1,128})$/;
const AGENTS_URI = "svc://agents";
const AGENT_MEMORIES_URI = /^svc:\/\/agents\/([^/?#]{1,768})\/memories$/;
const CONVERSATION_URI = /^svc:\/\/conversations\/([^/?#]{1,128})$/;

export async function readResource(deps: Deps, actor: Actor, uri: string): Promise<unknown> {
  const memory = MEMORY_URI.exec(uri);
  if (memory) return getMemory(deps.db, actor, decodeURIComponent(memory[1]!));
  if (uri === AGENTS_URI) return listAgents(deps.db, actor, { limit: LIST_PAGE });
  const agentMemories = AGENT_MEMORIES_URI.exec(uri);
  if (agentMemories)
    return listMemories(deps.db, actor, { agent_id: agentId(agentMemories[1]!), limit: LIST_PAGE });
  const conversation = CONVERSATION_URI.exec(uri);
  if (conversation) {
    const id = decodeURIComponent(conversation[1]!);
    const view = conversationView(await readConversation(deps.db, actor, id), deps.config);
    const turns = await readTurns(deps, actor, id, -1, TURNS_PAGE);
    return { ...view, turns: turns.items, next_after_turn: turns.next_after_turn };
  }
  throw validationFailed([
    {
      path: "uri",
      message:
        "must be svc://memories/{memory_id}, svc://agents, svc://agents/{agent_id}/memories or svc://conversations/{conversation_id}",
    },
  ]);
}

/** A percent-encoded agent id that decodes to a storable id of 1 to 256 characters. */
function agentId(encoded: string): string {
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    id = "";
  }
  if (id.length === 0 || id.length > 256 || id.includes("\u0000") || !id.isWellFormed()) {
    throw validationFailed([
      { path: "uri", message: "must name an agent id of 1 to 256 characters" },
    ]);
  }
  return id;
}
