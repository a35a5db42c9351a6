// Plain inserts of graph rows (memos, edges, provenance): refine's SUMMARY memos and inferred
// edges, and the graphs tests and benchmarks seed directly. Tenant transactions only.
import type { Tx } from "../../../pools";

export type NewMemo = {
  memo_id: string;
  agent_id: string;
  memo_type: string;
  name: string;
  normalized_name: string;
  aliases?: string[];
  ontology_uri?: string | null;
  description?: string | null;
  properties?: Record<string, unknown>;
  origin: "extracted" | "inferred" | "summary" | "user";
  cluster_hash?: Uint8Array | null;
  mention_count?: number;
  created_at?: Date;
  updated_at?: Date;
};

export type NewEdge = {
  edge_id: string;
  agent_id: string;
  src_memo_id: string;
  dst_memo_id: string;
  relation: string;
  fact: string;
  properties?: Record<string, unknown>;
  origin: "extracted" | "inferred" | "user" | "structural";
  confidence: number;
  weight: number;
  valid_at?: Date | null;
  invalid_at?: Date | null;
  created_at?: Date;
  last_reinforced_at?: Date | null;
  mention_count?: number;
};

export type NewSource = { memory_id: string; memory_version: number };

/** Postgres caps a statement at 65535 parameters; 16 columns a row keeps a chunk well under it. */
const CHUNK = 2000;

async function chunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

export async function insertMemos(tx: Tx, orgId: string, memos: NewMemo[]): Promise<void> {
  await chunked(
    memos,
    (chunk) =>
      tx`INSERT INTO memos ${tx(
        chunk.map((m) => ({
          org_id: orgId,
          memo_id: m.memo_id,
          agent_id: m.agent_id,
          memo_type: m.memo_type,
          name: m.name,
          normalized_name: m.normalized_name,
          aliases: m.aliases ?? [],
          ontology_uri: m.ontology_uri ?? null,
          description: m.description ?? null,
          properties: (m.properties ?? {}) as never,
          origin: m.origin,
          cluster_hash: m.cluster_hash ?? null,
          mention_count: m.mention_count ?? 1,
          created_at: m.created_at ?? new Date(),
          updated_at: m.updated_at ?? m.created_at ?? new Date(),
        })),
      )}`,
  );
}

/**
 * Inserts edges; with `skipExisting`, an edge identical to a current one (edges_identity) is
 * skipped. Returns the ids written.
 */
export async function insertEdges(
  tx: Tx,
  orgId: string,
  edges: NewEdge[],
  skipExisting = false,
): Promise<string[]> {
  const written: string[] = [];
  await chunked(edges, async (chunk) => {
    const rows = await tx<{ edge_id: string }[]>`INSERT INTO edges ${tx(
      chunk.map((e) => ({
        org_id: orgId,
        edge_id: e.edge_id,
        agent_id: e.agent_id,
        src_memo_id: e.src_memo_id,
        dst_memo_id: e.dst_memo_id,
        relation: e.relation,
        fact: e.fact,
        properties: (e.properties ?? {}) as never,
        origin: e.origin,
        confidence: e.confidence,
        weight: e.weight,
        valid_at: e.valid_at ?? null,
        invalid_at: e.invalid_at ?? null,
        created_at: e.created_at ?? new Date(),
        last_reinforced_at: e.last_reinforced_at ?? null,
        mention_count: e.mention_count ?? 1,
      })),
    )}
    ${skipExisting ? tx`ON CONFLICT (org_id, src_memo_id, relation, dst_memo_id, coalesce(valid_at, '-infinity'::timestamptz)) WHERE expired_at IS NULL DO NOTHING` : tx``}
    RETURNING edge_id`;
    written.push(...rows.map((r) => r.edge_id));
  });
  return written;
}

export async function insertEdgeSources(
  tx: Tx,
  orgId: string,
  rows: Array<NewSource & { edge_id: string; extractor: string }>,
): Promise<void> {
  await chunked(
    rows,
    (chunk) =>
      tx`INSERT INTO edge_sources ${tx(chunk.map((r) => ({ org_id: orgId, ...r })))} ON CONFLICT DO NOTHING`,
  );
}

export async function insertMemoSources(
  tx: Tx,
  orgId: string,
  rows: Array<NewSource & { memo_id: string }>,
): Promise<void> {
  await chunked(
    rows,
    (chunk) =>
      tx`INSERT INTO memo_sources ${tx(chunk.map((r) => ({ org_id: orgId, ...r })))} ON CONFLICT DO NOTHING`,
  );
}
