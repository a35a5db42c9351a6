// An Agents SDK session kept in an svc conversation: each history item is a turn (so it is also a
// memory recall can find), with the item itself in the turn's metadata to give it back unchanged.
import type { AgentInputItem, Session } from "@openai/agents";
import type { SvcClient } from "@svc/sdk";

export type SvcSessionOptions = {
  agentId: string;
  /** An existing conversation to continue; without it the first use opens one. */
  conversationId?: string;
};

type TurnRole = "user" | "assistant" | "system" | "tool";

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part: any) => part?.text ?? part?.refusal ?? "").join("");
  }
  return content === undefined ? "" : JSON.stringify(content);
}

/** The turn's role and searchable text; tool calls read as `name(arguments)`. */
function asTurn(item: AgentInputItem): { role: TurnRole; content: string } {
  const any = item as any;
  if (any.type === "function_call") {
    return { role: "assistant", content: `${any.name}(${any.arguments})` };
  }
  if (any.type === "function_call_result") {
    return { role: "tool", content: text(any.output?.text ?? any.output) };
  }
  if (["user", "assistant", "system"].includes(any.role)) {
    return { role: any.role, content: text(any.content) };
  }
  return { role: "assistant", content: JSON.stringify(item) };
}

export class SvcSession implements Session {
  private conversationId: string | undefined;

  constructor(
    private readonly svc: SvcClient,
    private readonly options: SvcSessionOptions,
  ) {
    this.conversationId = options.conversationId;
  }

  async getSessionId(): Promise<string> {
    this.conversationId ??= (
      await this.svc.conversations.open({ agent_id: this.options.agentId })
    ).conversation_id;
    return this.conversationId;
  }

  /** The live (not forgotten) turns, oldest first, each with the item it stores. */
  private async liveTurns() {
    const turns = [];
    for await (const turn of this.svc.conversations.allTurns(await this.getSessionId())) {
      const item = (turn.metadata as { agents_item?: AgentInputItem }).agents_item;
      if (!turn.forgotten && item) turns.push({ memoryId: turn.memory_id, item });
    }
    return turns;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const items = (await this.liveTurns()).map((t) => t.item);
    return limit === undefined ? items : items.slice(Math.max(0, items.length - limit));
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    const id = await this.getSessionId();
    // One at a time: turn order is the history's order.
    for (const item of items) {
      const { role, content } = asTurn(item);
      const turn = { role, content: content || "(empty)", metadata: { agents_item: item } };
      await this.svc.conversations.appendTurn(id, turn);
    }
  }

  /** Forgets the newest turn's memory; the turn stays in svc's log as forgotten. */
  async popItem(): Promise<AgentInputItem | undefined> {
    const last = (await this.liveTurns()).at(-1);
    if (!last) return undefined;
    await this.svc.memories.forget({ memory_id: last.memoryId });
    return last.item;
  }

  async clearSession(): Promise<void> {
    const memoryIds = (await this.liveTurns()).map((t) => t.memoryId);
    if (memoryIds.length > 0) await this.svc.memories.forget({ memory_ids: memoryIds });
  }
}
