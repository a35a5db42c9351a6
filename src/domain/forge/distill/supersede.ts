// Which edges a new fact closes. Structural only (never by similarity): on a functional relation
// the open edges of one subject are ordered by event time, and each is closed by the next one in
// time that names a different object; a negated fact closes the matching open edge stated no later
// than it.
import type { EdgeClosure, SlotEdge } from "../../../data/queries/graph/edges";

/** An edge's place in event time: its valid_at, else when its newest source memory happened. */
export const eventTimeOf = (e: Pick<SlotEdge, "valid_at" | "observed_at" | "created_at">): number =>
  (e.valid_at ?? e.observed_at ?? e.created_at).getTime();

const byEventTime = (a: SlotEdge, b: SlotEdge) =>
  eventTimeOf(a) - eventTimeOf(b) ||
  a.created_at.getTime() - b.created_at.getTime() ||
  (a.edge_id < b.edge_id ? -1 : a.edge_id > b.edge_id ? 1 : 0);

/**
 * Open edges of one or more (src, relation) slots of functional relations. Out-of-order distills
 * come out right: an older fact distilled after a newer one is closed by the newer one, not the
 * reverse. invalid_at is the successor's event time (never before the edge's own valid_at).
 */
export function functionalClosures(edges: SlotEdge[]): EdgeClosure[] {
  const slots = new Map<string, SlotEdge[]>();
  for (const e of edges) {
    const key = `${e.src_memo_id}\u0000${e.relation}`;
    slots.set(key, [...(slots.get(key) ?? []), e]);
  }
  const closures: EdgeClosure[] = [];
  for (const slot of slots.values()) {
    const ordered = [...slot].sort(byEventTime);
    ordered.forEach((edge, i) => {
      const next = ordered.slice(i + 1).find((later) => later.dst_memo_id !== edge.dst_memo_id);
      if (!next) return;
      closures.push({
        edge_id: edge.edge_id,
        invalid_at: new Date(Math.max(eventTimeOf(next), edge.valid_at?.getTime() ?? -Infinity)),
        superseded_by: next.edge_id,
      });
    });
  }
  return closures;
}

export type Negation = { src_memo_id: string; relation: string; dst_memo_id: string; at: Date };

/**
 * "X no longer …": closes the open edge with the same endpoints and relation if it was stated no
 * later than the negation.
 */
export function negationClosures(open: SlotEdge[], negations: Negation[]): EdgeClosure[] {
  const closures = new Map<string, EdgeClosure>();
  for (const n of negations) {
    for (const e of open) {
      if (
        e.src_memo_id !== n.src_memo_id ||
        e.relation !== n.relation ||
        e.dst_memo_id !== n.dst_memo_id
      )
        continue;
      if (eventTimeOf(e) > n.at.getTime() || closures.has(e.edge_id)) continue;
      closures.set(e.edge_id, {
        edge_id: e.edge_id,
        invalid_at: new Date(Math.max(n.at.getTime(), e.valid_at?.getTime() ?? -Infinity)),
        superseded_by: null,
      });
    }
  }
  return [...closures.values()];
}
