// AUTO's neighbouring-turn signal: for candidates that are conversation turns, the current turns
// within ±n positions of each in the same conversation and agent that pass the recall's filters, as
// recall rows. Tenant transactions only; hits are read through (org_id, memory_id) (sql/0205).
import type { Tx } from "../pools";
import { candidateFilter, recallColumns } from "./recall-common";
import type { RecallFilterInput, RecallRow } from "./recall-common";

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
