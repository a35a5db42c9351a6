// Appending and listing turns. A turn is stored as a memory of type `turn` (agent = the
// conversation's agent, metadata {conversation_id, turn_index, role}), embedded before the
// transaction; the turn index claim, the memory, the turn row and the audit rows commit together.
import type { Ports } from "../ports/ports";
import {
  claimTurnIndex,
  findConversation,
  insertTurn,
  listTurns,
} from "../../data/queries/conversations/conversations";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { gone, notFound } from "../../lib/errors";
import { insertPreparedMemories, prepareMemories } from "../memories/prepare";
import { checkMetadata } from "../metadata";
import { needsSummary, readConversation } from "./conversations";

export const TURN_ROLES = ["user", "assistant", "system", "tool", "summary"] as const;
export type TurnRole = (typeof TURN_ROLES)[number];
/**
 * occurred_at: when the turn was said (ISO 8601), stored as its memory's event time; default now.
 */
export type TurnInput = {
  role: TurnRole;
  content: string;
  /** Checked against the one metadata contract here (a 422 naming /metadata). */
  metadata?: unknown;
  occurred_at?: string;
};

const estimateTokens = (text: string) => Math.ceil(text.length / 4);
const deletedProblem = (id: string) =>
  gone(`Conversation ${id} was deleted; its turns stay readable but no turn can be appended`);

export async function appendTurn(
  deps: Pick<Ports, "db" | "config" | "embeddings" | "queue" | "log">,
  actor: Actor,
  conversationId: string,
  input: TurnInput,
) {
  const metadata = checkMetadata(deps.config, input.metadata);
  const conversation = await readConversation(deps.db, actor, conversationId);
  if (conversation.deleted_at !== null) throw deletedProblem(conversationId);
  const [prepared] = await prepareMemories(deps, actor, [
    {
      agent_id: conversation.agent_id,
      content: input.content,
      memory_type: "turn",
      metadata: { ...metadata, conversation_id: conversationId, role: input.role },
      ...(input.occurred_at === undefined ? {} : { occurred_at: input.occurred_at }),
    },
  ]);
  return withTenant(deps.db, actor.orgId, async (tx) => {
    const claimed = await claimTurnIndex(
      tx,
      conversationId,
      estimateTokens(input.content),
      input.role === "summary",
    );
    if (!claimed)
      throw (await findConversation(tx, conversationId))
        ? deletedProblem(conversationId)
        : notFound("Conversation");
    prepared!.metadata = { ...prepared!.metadata, turn_index: claimed.turn_index };
    const [memory] = await insertPreparedMemories(tx, actor, [prepared!]);
    const turn = await insertTurn(tx, {
      org_id: actor.orgId,
      conversation_id: conversationId,
      turn_index: claimed.turn_index,
      role: input.role,
      memory_id: memory!.memory_id,
    });
    await recordAudit(tx, actor, {
      operation: "conversation.turn",
      agentId: conversation.agent_id,
      targetIds: [conversationId, memory!.memory_id],
      detail: { turn_index: claimed.turn_index, role: input.role },
    });
    return {
      conversation_id: conversationId,
      turn_index: claimed.turn_index,
      role: input.role,
      memory_id: memory!.memory_id,
      needs_summary: needsSummary(claimed, deps.config),
      turns_since_summary: claimed.turns_since_summary,
      created_at: turn.created_at,
      occurred_at: memory!.occurred_at,
    };
  });
}

export async function readTurns(
  deps: Pick<Ports, "db">,
  actor: Actor,
  conversationId: string,
  afterTurn: number,
  limit: number,
) {
  await readConversation(deps.db, actor, conversationId);
  const rows = await withTenantRead(deps.db, actor.orgId, (tx) =>
    listTurns(tx, conversationId, afterTurn, limit + 1),
  );
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({ ...r, forgotten: r.content === null, metadata: r.metadata ?? {} })),
    next_after_turn: rows.length > limit ? page[page.length - 1]!.turn_index : null,
  };
}
