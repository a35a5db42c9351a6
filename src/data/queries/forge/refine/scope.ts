// A refine run's scope as SQL conditions: one agent's graph, and/or the part of the graph grounded
// in one dataset's memories (a memo or edge with at least one source among that dataset's current
// memories).
import type { Tx } from "../../../pools";

export type RefineScope = { agentId: string | null; datasetId: string | null };

/** AND-conditions on a memos row aliased `alias`. */
export function memoInScope(tx: Tx, scope: RefineScope, alias: string) {
  const m = tx(alias);
  return tx`
    ${scope.agentId === null ? tx`` : tx`AND ${m}.agent_id = ${scope.agentId}`}
    ${
      scope.datasetId === null
        ? tx``
        : tx`AND EXISTS (SELECT 1 FROM memo_sources s JOIN memories mm ON mm.memory_id = s.memory_id AND mm.valid_to IS NULL
      WHERE s.memo_id = ${m}.memo_id AND mm.dataset_id = ${scope.datasetId})`
    }`;
}

/** AND-conditions on an edges row aliased `alias`. */
export function edgeInScope(tx: Tx, scope: RefineScope, alias: string) {
  const e = tx(alias);
  return tx`
    ${scope.agentId === null ? tx`` : tx`AND ${e}.agent_id = ${scope.agentId}`}
    ${
      scope.datasetId === null
        ? tx``
        : tx`AND EXISTS (SELECT 1 FROM edge_sources s JOIN memories mm ON mm.memory_id = s.memory_id AND mm.valid_to IS NULL
      WHERE s.edge_id = ${e}.edge_id AND mm.dataset_id = ${scope.datasetId})`
    }`;
}

/** The agents with live memos in scope, in order: passes that work per agent walk this list. */
export async function agentsInScope(tx: Tx, scope: RefineScope): Promise<string[]> {
  if (scope.agentId !== null) return [scope.agentId];
  const rows = await tx<
    { agent_id: string }[]
  >`SELECT DISTINCT m.agent_id FROM memos m WHERE m.retired_at IS NULL ${memoInScope(tx, scope, "m")} ORDER BY 1`;
  return rows.map((r) => r.agent_id);
}
