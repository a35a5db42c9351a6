// Retention-cap queries: the agents over a cap, each one's cut-off, and its memories past the
// cut-off in bounded keyset chunks (svc.enforce_retention_caps, issue 23).
import type { Tx } from "../../pools";

/** The cap's last kept memory of an agent, in rank order; values as text so none is rounded. */
export type CapCutoff = { importance: string; valid_from: string; memory_id: string };

/** Where a walk over an agent's current memories (newest first) continues. */
export type CapCursor = { valid_from: string; memory_id: string };

export const CAP_WALK_START: CapCursor = { valid_from: "infinity", memory_id: "" };

/** Agents of the tenant with more than `cap` current memories (an index-only count per agent). */
export async function agentsOverCap(tx: Tx, cap: number): Promise<string[]> {
  const rows = await tx<{ agent_id: string }[]>`
    SELECT agent_id FROM memories WHERE valid_to IS NULL
    GROUP BY agent_id HAVING count(*) > ${cap} ORDER BY agent_id`;
  return rows.map((r) => r.agent_id);
}

/**
 * The agent's `cap`-th memory by rank (highest importance, then newest, then memory_id): those
 * ranked after it are over the cap. One pass keeping a heap of `cap` rows; null: within the cap.
 * The ORDER BY names the table's columns: bare names are the text output columns, and as text
 * importance 1e-05 ranks above 0.5.
 */
export async function capCutoff(tx: Tx, agentId: string, cap: number): Promise<CapCutoff | null> {
  const [row] = await tx<CapCutoff[]>`
    SELECT importance::text AS importance, valid_from::text AS valid_from, memory_id
    FROM memories WHERE agent_id = ${agentId} AND valid_to IS NULL
    ORDER BY memories.importance DESC, memories.valid_from DESC, memories.memory_id DESC
    OFFSET ${cap - 1} LIMIT 1`;
  return row ?? null;
}

export type CapChunk = { ids: string[]; next: CapCursor | null };

/**
 * The next `limit` current memories of the agent after `cursor` (newest first, on
 * memories_agent_current), and among them the ids ranked after `cutoff`. `next` is null when the
 * walk has reached the agent's oldest memory. Reads at most `limit` rows however large the agent
 * (sql/0670). The ORDER BY names the table's columns: bare `valid_from` is the text output column,
 * which no index orders, so every chunk sorted the whole agent.
 */
export async function overCapChunk(
  tx: Tx,
  agentId: string,
  cutoff: CapCutoff,
  cursor: CapCursor,
  limit: number,
): Promise<CapChunk> {
  const rows = await tx<Array<CapCursor & { over: boolean }>>`
    SELECT valid_from::text AS valid_from, memory_id,
      (importance, valid_from, memory_id) < (${cutoff.importance}::text::real,
        ${cutoff.valid_from}::text::timestamptz, ${cutoff.memory_id}) AS over
    FROM memories
    WHERE agent_id = ${agentId} AND valid_to IS NULL
      AND (valid_from, memory_id) < (${cursor.valid_from}::text::timestamptz, ${cursor.memory_id})
    ORDER BY memories.valid_from DESC, memories.memory_id DESC LIMIT ${limit}`;
  const last = rows.at(-1);
  return {
    ids: rows.filter((r) => r.over).map((r) => r.memory_id),
    next:
      rows.length < limit || !last
        ? null
        : { valid_from: last.valid_from, memory_id: last.memory_id },
  };
}
