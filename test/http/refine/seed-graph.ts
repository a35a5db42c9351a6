// Seeds a small graph for one agent directly through the data layer (inside withTenant): memos by
// name, edges between them, and provenance to real memories. Stands in for distill in refine tests.
import type { Database } from "../../../src/data/pools";
import {
  insertEdges,
  insertEdgeSources,
  insertMemos,
  insertMemoSources,
  type NewEdge,
} from "../../../src/data/queries/forge/refine/graph-writes";
import { withTenant } from "../../../src/data/with-tenant";
import { normalizeName } from "../../../src/domain/graph/normalize";
import { newId } from "../../../src/lib/ids";

export type SeedNode = {
  name: string;
  type?: string;
  ontology_uri?: string;
  aliases?: string[];
  sources?: string[];
  created_at?: Date;
  origin?: "extracted" | "user";
};
export type SeedEdge = {
  src: string;
  relation: string;
  dst: string;
  weight?: number;
  confidence?: number;
  origin?: NewEdge["origin"];
  created_at?: Date;
  valid_at?: Date | null;
  invalid_at?: Date | null;
  sources?: string[];
};
export type SeededGraph = { memo: Record<string, string>; edge: string[] };

export async function seedGraph(
  db: Database,
  orgId: string,
  agentId: string,
  nodes: SeedNode[],
  edges: SeedEdge[],
): Promise<SeededGraph> {
  const memo: Record<string, string> = {};
  for (const n of nodes) memo[n.name] = newId("memo");
  const rows: NewEdge[] = edges.map((e) => ({
    edge_id: newId("edge"),
    agent_id: agentId,
    src_memo_id: memo[e.src]!,
    dst_memo_id: memo[e.dst]!,
    relation: e.relation,
    fact: `${e.src} ${e.relation.toLowerCase().replaceAll("_", " ")} ${e.dst}`,
    origin: e.origin ?? "extracted",
    confidence: e.confidence ?? 0.9,
    weight: e.weight ?? 0.5,
    created_at: e.created_at,
    valid_at: e.valid_at ?? null,
    invalid_at: e.invalid_at ?? null,
  }));
  await withTenant(db, orgId, async (tx) => {
    await insertMemos(
      tx,
      orgId,
      nodes.map((n) => ({
        memo_id: memo[n.name]!,
        agent_id: agentId,
        memo_type: n.type ?? "CONCEPT",
        name: n.name,
        normalized_name: normalizeName(n.name),
        aliases: n.aliases ?? [],
        ontology_uri: n.ontology_uri ?? null,
        origin: n.origin ?? "extracted",
        created_at: n.created_at,
      })),
    );
    await insertEdges(tx, orgId, rows);
    await insertMemoSources(
      tx,
      orgId,
      nodes.flatMap((n) =>
        (n.sources ?? []).map((m) => ({ memo_id: memo[n.name]!, memory_id: m, memory_version: 1 })),
      ),
    );
    await insertEdgeSources(
      tx,
      orgId,
      edges.flatMap((e, i) =>
        (e.sources ?? []).map((m) => ({
          edge_id: rows[i]!.edge_id,
          memory_id: m,
          memory_version: 1,
          extractor: "test-seed",
        })),
      ),
    );
  });
  return { memo, edge: rows.map((r) => r.edge_id) };
}
