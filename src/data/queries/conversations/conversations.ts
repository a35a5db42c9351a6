// conversations and conversation_turns rows; tenant transactions only. A turn's text is its
// memory's current version (memory_type 'turn').
import type { Tx } from "../../pools";

export type ConversationRow = {
  conversation_id: string;
  agent_id: string;
  title: string | null;
  metadata: Record<string, unknown>;
  turn_count: number;
  turns_since_summary: number;
  tokens_since_summary: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
};
const COLUMNS = [
  "conversation_id",
  "agent_id",
  "title",
  "metadata",
  "turn_count",
  "turns_since_summary",
  "tokens_since_summary",
  "created_at",
  "updated_at",
  "deleted_at",
] as const;

export async function insertConversation(
  tx: Tx,
  row: {
    org_id: string;
    conversation_id: string;
    agent_id: string;
    title: string | null;
    metadata: Record<string, unknown>;
  },
): Promise<ConversationRow> {
  const rows = await tx<
    ConversationRow[]
  >`INSERT INTO conversations ${tx({ ...row, metadata: tx.json(row.metadata as never) })} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}

export async function findConversation(
  tx: Tx,
  conversationId: string,
  lock = false,
): Promise<ConversationRow | null> {
  const rows = await tx<
    ConversationRow[]
  >`SELECT ${tx(COLUMNS)} FROM conversations WHERE conversation_id = ${conversationId} ${lock ? tx`FOR UPDATE` : tx``}`;
  return rows[0] ?? null;
}

export async function markConversationDeleted(
  tx: Tx,
  conversationId: string,
): Promise<ConversationRow> {
  const rows = await tx<
    ConversationRow[]
  >`UPDATE conversations SET deleted_at = now(), updated_at = now() WHERE conversation_id = ${conversationId} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}

/**
 * Claims the next turn index of an open conversation. The row lock it takes serialises concurrent
 * appends, and a rollback gives the index back, so indexes are contiguous. A `summary` turn resets
 * the counters behind needs_summary. Returns null when the conversation is missing or deleted.
 */
export async function claimTurnIndex(
  tx: Tx,
  conversationId: string,
  tokens: number,
  isSummary: boolean,
): Promise<(ConversationRow & { turn_index: number }) | null> {
  const rows = await tx<(ConversationRow & { turn_index: number })[]>`
    UPDATE conversations SET
      turn_count = turn_count + 1,
      turns_since_summary = CASE WHEN ${isSummary} THEN 0 ELSE turns_since_summary + 1 END,
      tokens_since_summary = CASE WHEN ${isSummary} THEN 0 ELSE tokens_since_summary + ${tokens} END,
      updated_at = now()
    WHERE conversation_id = ${conversationId} AND deleted_at IS NULL
    RETURNING ${tx(COLUMNS)}, turn_count - 1 AS turn_index`;
  return rows[0] ?? null;
}

export async function insertTurn(
  tx: Tx,
  row: {
    org_id: string;
    conversation_id: string;
    turn_index: number;
    role: string;
    memory_id: string;
  },
): Promise<{ created_at: Date }> {
  const rows = await tx<
    { created_at: Date }[]
  >`INSERT INTO conversation_turns ${tx(row)} RETURNING created_at`;
  return rows[0]!;
}

export type TurnRow = {
  turn_index: number;
  role: string;
  memory_id: string;
  created_at: Date;
  occurred_at: Date | null;
  content: string | null;
  metadata: Record<string, unknown> | null;
};

/**
 * Turns after `afterTurn` in order, with their memory's current text (null once that memory is
 * forgotten).
 */
export async function listTurns(
  tx: Tx,
  conversationId: string,
  afterTurn: number,
  limit: number,
): Promise<TurnRow[]> {
  return tx<TurnRow[]>`
    SELECT t.turn_index, t.role, t.memory_id, t.created_at, m.occurred_at, m.content, m.metadata
    FROM conversation_turns t
    LEFT JOIN memories m ON m.org_id = t.org_id AND m.memory_id = t.memory_id AND m.valid_to IS NULL
    WHERE t.conversation_id = ${conversationId} AND t.turn_index > ${afterTurn}
    ORDER BY t.turn_index LIMIT ${limit}`;
}
