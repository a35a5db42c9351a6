// The neighbouring turns of recalled memories that are conversation turns (recall's `context`
// option): for each hit, the current turns within ±n positions of it in the same conversation, of
// the same agent. Tenant transactions only. The hits are found through the (org_id, memory_id)
// index (sql/0205).
import type { Tx } from "../../pools";

export type NeighbourRow = {
  hit: string;
  memory_id: string;
  version: number;
  role: string;
  turn_index: number;
  offset: number;
  content: string;
  occurred_at: Date;
};

export async function turnNeighbours(
  tx: Tx,
  orgId: string,
  agentId: string,
  memoryIds: string[],
  n: number,
): Promise<NeighbourRow[]> {
  if (memoryIds.length === 0) return [];
  return tx<NeighbourRow[]>`
    SELECT h.memory_id AS hit, m.memory_id, m.version, x.role, x.turn_index, x.turn_index - h.turn_index AS "offset", m.content, m.occurred_at
    FROM conversation_turns h
    JOIN conversation_turns x ON x.org_id = h.org_id AND x.conversation_id = h.conversation_id
      AND x.turn_index BETWEEN h.turn_index - ${n}::int AND h.turn_index + ${n}::int AND x.turn_index <> h.turn_index
    JOIN memories m ON m.org_id = x.org_id AND m.memory_id = x.memory_id AND m.agent_id = ${agentId}
      AND m.valid_to IS NULL AND (m.expires_at IS NULL OR m.expires_at > now())
    WHERE h.org_id = ${orgId} AND h.memory_id = ANY(${memoryIds}::text[])
    ORDER BY h.memory_id, x.turn_index`;
}
