// Context from neighbouring turns (`context: {neighbours: n}`, docs/recall.md "Context"): each
// result that is a conversation turn carries the current turns up to n positions before and after
// it in its conversation, read in the recall's transaction. The ranking does not change; other
// results carry an empty list.
import type { Tx } from "../../data/pools";
import { turnNeighbours, type NeighbourRow } from "../../data/queries/recall/turn-neighbours";
import { redactText } from "./redaction";

export const NEIGHBOURS_MAX = 5;

export type NeighbourTurn = Omit<NeighbourRow, "hit">;
export type Neighbours = Map<string, NeighbourTurn[]>;

export async function fetchNeighbours(
  tx: Tx,
  orgId: string,
  agentId: string,
  memoryIds: string[],
  n: number,
): Promise<Neighbours> {
  const byHit: Neighbours = new Map();
  for (const { hit, ...turn } of await turnNeighbours(tx, orgId, agentId, memoryIds, n))
    byHit.set(hit, [...(byHit.get(hit) ?? []), turn]);
  return byHit;
}

/**
 * Each result with its neighbours (redacted like the results when `redact`); the count of masked
 * values.
 */
export function withNeighbours<T extends { memory_id: string }>(
  results: T[],
  neighbours: Neighbours,
  redact: boolean,
): { results: Array<T & { context: NeighbourTurn[] }>; redactions: number } {
  let redactions = 0;
  const out = results.map((r) => ({
    ...r,
    context: (neighbours.get(r.memory_id) ?? []).map((turn) => {
      if (!redact) return turn;
      const content = redactText(turn.content);
      redactions += content.count;
      return { ...turn, content: content.value };
    }),
  }));
  return { results: out, redactions };
}
