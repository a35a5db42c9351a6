// Which VECTOR shape (exact sort or index walk) each agent's last cost estimate chose, kept for a
// few seconds so most recalls skip the estimate's round trip. Only a hint: a stale entry costs
// time, never results (the index shape falls back to the exact one when short, and the exact one is
// exact), and an agent's size changes slowly next to the TTL. Bounded; per process; a restart
// empties it.
import type { VectorShape, VectorShapeHints } from "../../data/queries/recall/vector";

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

export function createVectorShapeHints(
  ttlMs = TTL_MS,
  clock: () => number = Date.now,
): VectorShapeHints {
  const entries = new Map<string, { shape: VectorShape; until: number }>();
  const keyOf = (orgId: string, agentId: string, dimensions: number) =>
    `${orgId}\u0000${agentId}\u0000${dimensions}`;
  return {
    get(orgId, agentId, dimensions) {
      const entry = entries.get(keyOf(orgId, agentId, dimensions));
      return entry && entry.until > clock() ? entry.shape : undefined;
    },
    put(orgId, agentId, dimensions, shape) {
      const key = keyOf(orgId, agentId, dimensions);
      entries.delete(key);
      entries.set(key, { shape, until: clock() + ttlMs });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    },
  };
}
