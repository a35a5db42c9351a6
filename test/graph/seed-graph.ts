// Seeds graph rows (memos, edges, provenance) for one agent through withTenant, for tests that need
// a graph independent of what distill extracts. Memories named as sources must exist (version 1).
import type { Database } from "../../src/data/pools";
import { withTenant } from "../../src/data/with-tenant";
import { newId } from "../../src/lib/ids";
import { normalizeName } from "../../src/domain/graph/normalize";

export type SeedMemo = {
  key: string;
  type: string;
  name: string;
  properties?: Record<string, unknown>;
  aliases?: string[];
  sources?: string[];
};
export type SeedEdge = {
  key: string;
  from: string;
  rel: string;
  to: string;
  fact?: string;
  weight?: number;
  confidence?: number;
  validAt?: string;
  invalidAt?: string;
  expiredReason?: string;
  properties?: Record<string, unknown>;
  sources?: string[];
};
export type SeededGraph = { memo: Record<string, string>; edge: Record<string, string> };

export async function seedGraph(
  db: Database,
  orgId: string,
  agentId: string,
  memos: SeedMemo[],
  edges: SeedEdge[],
): Promise<SeededGraph> {
  const seeded: SeededGraph = { memo: {}, edge: {} };
  await withTenant(db, orgId, async (tx) => {
    for (const m of memos) {
      const id = newId("memo");
      seeded.memo[m.key] = id;
      await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, aliases, properties, origin, mention_count)
        VALUES (${orgId}, ${id}, ${agentId}, ${m.type}, ${m.name}, ${normalizeName(m.name)}, ${m.aliases ?? []}::text[], ${tx.json((m.properties ?? {}) as never)}::jsonb, 'extracted', 1)`;
      for (const memoryId of m.sources ?? []) {
        await tx`INSERT INTO memo_sources (org_id, memo_id, memory_id, memory_version) VALUES (${orgId}, ${id}, ${memoryId}, 1)`;
      }
    }
    for (const e of edges) {
      const id = newId("edge");
      seeded.edge[e.key] = id;
      const expired = e.expiredReason ? new Date() : null;
      await tx`INSERT INTO edges (org_id, edge_id, agent_id, src_memo_id, dst_memo_id, relation, fact, properties, origin, confidence, weight,
          valid_at, invalid_at, expired_at, expired_reason)
        VALUES (${orgId}, ${id}, ${agentId}, ${seeded.memo[e.from]!}, ${seeded.memo[e.to]!}, ${e.rel}, ${e.fact ?? `${e.from} ${e.rel} ${e.to}`},
          ${tx.json((e.properties ?? {}) as never)}::jsonb, 'extracted', ${e.confidence ?? 0.9}, ${e.weight ?? 0.5},
          ${e.validAt ? new Date(e.validAt) : null}, ${e.invalidAt ? new Date(e.invalidAt) : null}, ${expired}, ${e.expiredReason ?? null})`;
      for (const memoryId of e.sources ?? []) {
        await tx`INSERT INTO edge_sources (org_id, edge_id, memory_id, memory_version, extractor) VALUES (${orgId}, ${id}, ${memoryId}, 1, 'test')`;
      }
    }
  });
  return seeded;
}
