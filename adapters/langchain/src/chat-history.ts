// A LangChain chat-message history kept in an svc conversation: each message is a turn (so recall
// finds it too), with the stored message in the turn's metadata to give it back unchanged.
import { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import {
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  type BaseMessage,
  type StoredMessage,
} from "@langchain/core/messages";
import type { SvcClient } from "@svc/sdk";

export type SvcChatMessageHistoryInput = {
  svc: SvcClient;
  agentId: string;
  /** An existing conversation to continue; without it the first use opens one. */
  conversationId?: string;
};

const ROLES = { human: "user", ai: "assistant", system: "system", tool: "tool" } as const;

/** The turn's role and searchable text; an AI message that only calls tools reads `name(args)`. */
function asTurn(message: BaseMessage) {
  const role = ROLES[message.type as keyof typeof ROLES] ?? "assistant";
  type Call = { name: string; args: unknown };
  const calls = "tool_calls" in message ? (message.tool_calls as Call[]) : [];
  const content =
    message.text || calls.map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(" ");
  return { role, content: content || "(empty)" };
}

export class SvcChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ["svc", "chat_history"];
  private readonly svc: SvcClient;
  private readonly agentId: string;
  private conversationId: string | undefined;

  constructor({ svc, agentId, conversationId }: SvcChatMessageHistoryInput) {
    super();
    this.svc = svc;
    this.agentId = agentId;
    this.conversationId = conversationId;
  }

  async getConversationId(): Promise<string> {
    this.conversationId ??= (
      await this.svc.conversations.open({ agent_id: this.agentId })
    ).conversation_id;
    return this.conversationId;
  }

  /** The live (not forgotten) turns, oldest first, each with the message it stores. */
  private async liveTurns() {
    const turns = [];
    for await (const turn of this.svc.conversations.allTurns(await this.getConversationId())) {
      const stored = (turn.metadata as { langchain_message?: StoredMessage }).langchain_message;
      if (!turn.forgotten && stored) turns.push({ memoryId: turn.memory_id, stored });
    }
    return turns;
  }

  async getMessages(): Promise<BaseMessage[]> {
    return mapStoredMessagesToChatMessages((await this.liveTurns()).map((t) => t.stored));
  }

  async addMessage(message: BaseMessage): Promise<void> {
    const [stored] = mapChatMessagesToStoredMessages([message]);
    const { role, content } = asTurn(message);
    const id = await this.getConversationId();
    const metadata = { langchain_message: stored };
    await this.svc.conversations.appendTurn(id, { role, content, metadata });
  }

  /** Forgets every turn's memory; the turns stay in svc's log as forgotten. */
  override async clear(): Promise<void> {
    const memoryIds = (await this.liveTurns()).map((t) => t.memoryId);
    if (memoryIds.length > 0) await this.svc.memories.forget({ memory_ids: memoryIds });
  }
}
