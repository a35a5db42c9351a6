// AUTO's neighbouring-turn signal: for candidates that are conversation turns, the current turns
// within ±n positions of each in the same conversation and agent; for loose candidates, the current
// memories within ±n positions in storage order among the agent's memories of the same episode
// (same occurred_at). Only those that pass the recall's filters, as recall rows. Tenant
// transactions only; hits are read through (org_id, memory_id) (sql/0205, sql/0100).
import type { Tx } from "../../pools";
import { candidateFilter, recallColumns } from "./common";
import type { RecallFilterInput, RecallRow } from "./common";

export type NeighbourTurnRow = RecallRow & { hit: string; offset: number };

export function neighbourTurnRows(tx: Tx, filter: RecallFilterInput, hits: string[], n: number) {
  return tx<NeighbourTurnRow[]>`
    SELECT h.memory_id AS hit, x.turn_index - h.turn_index AS "offset", m.*, 0::real AS score
    FROM conversation_turns h
    JOIN conversation_turns x ON x.org_id = h.org_id AND x.conversation_id = h.conversation_id
      AND x.turn_index BETWEEN h.turn_index - ${n}::int AND h.turn_index + ${n}::int
      AND x.turn_index <> h.turn_index
    CROSS JOIN LATERAL (
      SELECT ${recallColumns(tx)} FROM memories
      WHERE memory_id = x.memory_id AND ${candidateFilter(tx, filter)}
      LIMIT 1
    ) AS m
    WHERE h.org_id = ${filter.orgId} AND h.memory_id = ANY(${hits}::text[])
    ORDER BY h.memory_id, x.turn_index`;
}

/**
 * Loose memories: positions count the agent's current memories of the episode, filtered or not, so
 * a filter removes a neighbour without moving the others closer. A memory whose occurred_at is its
 * created_at was stored without one (src/domain/memories/prepare.ts): it has no episode. Each hit
 * is read by its key (memories_one_current) and its neighbours' rows straight from the two ranges
 * of memories_episode_order, filtered after they are numbered: no lookup per neighbour, whose plan
 * on a freshly loaded table (no statistics) scanned the agent's memories for each.
 */
export function neighbourEpisodeRows(tx: Tx, filter: RecallFilterInput, hits: string[], n: number) {
  const { orgId, agentId } = filter;
  const columns = tx`${recallColumns(tx)}, org_id, valid_to`;
  return tx<NeighbourTurnRow[]>`
    SELECT hit, "offset", ${recallColumns(tx)}, 0::real AS score FROM (
      SELECT h.memory_id AS hit, x.*
      FROM unnest(${hits}::text[]) AS k(memory_id)
      CROSS JOIN LATERAL (
        SELECT org_id, agent_id, occurred_at, memory_id FROM memories
        WHERE org_id = ${orgId} AND memory_id = k.memory_id AND valid_to IS NULL
          AND agent_id = ${agentId} AND occurred_at <> created_at
      ) AS h
      CROSS JOIN LATERAL (
        (SELECT ${columns}, -(row_number() OVER (ORDER BY memory_id DESC))::int AS "offset"
         FROM memories e WHERE e.org_id = h.org_id AND e.agent_id = h.agent_id
           AND e.occurred_at = h.occurred_at AND e.valid_to IS NULL AND e.memory_id < h.memory_id
         ORDER BY e.memory_id DESC LIMIT ${n}::int)
        UNION ALL
        (SELECT ${columns}, (row_number() OVER (ORDER BY memory_id))::int
         FROM memories e WHERE e.org_id = h.org_id AND e.agent_id = h.agent_id
           AND e.occurred_at = h.occurred_at AND e.valid_to IS NULL AND e.memory_id > h.memory_id
         ORDER BY e.memory_id LIMIT ${n}::int)
      ) AS x
    ) AS neighbour
    WHERE ${candidateFilter(tx, filter)}
    ORDER BY hit, "offset"`;
}
