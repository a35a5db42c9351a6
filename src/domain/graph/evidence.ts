// Turning edges into cited facts and memory results for the graph strategies. A fact is shown only
// with the memory versions that ground it *and* are citable now (current, unexpired, passing the
// recall's filters); a fact left with none is not shown at all, so nothing reaches the caller
// through the graph that recall could not return directly.
import { edgeSources, type EdgeRow } from "../../data/queries/graph/read";
import { groundingMemories, memoNames } from "../../data/queries/graph/facts";
import type { RecallFilterInput, RecallRow } from "../../data/queries/recall/common";
import type { Tx } from "../../data/pools";
import type { GraphFact, GraphPath, GraphSource } from "../../data/graph-evidence";

export type CitedFacts = {
  facts: Map<string, GraphFact>;
  /** The citable memories behind those facts, by memory_id. */
  memories: Map<string, Omit<RecallRow, "score">>;
};

export async function citeFacts(
  tx: Tx,
  filter: RecallFilterInput,
  edges: EdgeRow[],
): Promise<CitedFacts> {
  const unique = [...new Map(edges.map((e) => [e.edge_id, e])).values()];
  const sources = await edgeSources(
    tx,
    filter.orgId,
    unique.map((e) => e.edge_id),
  );
  const rows = await groundingMemories(tx, filter, [...new Set(sources.map((s) => s.memory_id))]);
  const memories = new Map(rows.map((r) => [r.memory_id, r]));
  const names = new Map(
    (
      await memoNames(tx, filter.orgId, [
        ...new Set(unique.flatMap((e) => [e.src_memo_id, e.dst_memo_id])),
      ])
    ).map((m) => [m.memo_id, m]),
  );
  const bySource = new Map<string, GraphSource[]>();
  for (const s of sources) {
    if (!memories.has(s.memory_id)) continue;
    bySource.set(s.owner_id, [
      ...(bySource.get(s.owner_id) ?? []),
      { memory_id: s.memory_id, version: s.memory_version },
    ]);
  }
  const facts = new Map<string, GraphFact>();
  for (const e of unique) {
    const cited = bySource.get(e.edge_id);
    const subject = names.get(e.src_memo_id);
    const object = names.get(e.dst_memo_id);
    if (!cited || !subject || !object) continue;
    facts.set(e.edge_id, {
      edge_id: e.edge_id,
      subject,
      relation: e.relation,
      object,
      fact: e.fact,
      weight: e.weight,
      confidence: e.confidence,
      origin: e.origin,
      valid_at: e.valid_at,
      invalid_at: e.invalid_at,
      created_at: e.created_at,
      expired_at: e.expired_at,
      expired_reason: e.expired_reason,
      sources: cited,
    });
  }
  return { facts, memories };
}

/** Sources of a path: every citable version behind its edges, once each. */
export function pathSources(
  path: { edge_ids: string[] },
  facts: Map<string, GraphFact>,
): GraphSource[] {
  const seen = new Map<string, GraphSource>();
  for (const id of path.edge_ids)
    for (const s of facts.get(id)?.sources ?? []) seen.set(`${s.memory_id}/${s.version}`, s);
  return [...seen.values()];
}

export type Grounding = { memoryId: string; score: number; edgeIds: string[]; path?: GraphPath };

/**
 * One result per memory, at its best score, carrying the edges (and path) that led to it; best
 * first, at most topK.
 */
export function groundedRows(
  cited: CitedFacts,
  groundings: Grounding[],
  topK: number,
): RecallRow[] {
  const best = new Map<string, Grounding>();
  for (const g of groundings) {
    const seen = best.get(g.memoryId);
    if (!cited.memories.has(g.memoryId)) continue;
    if (!seen || g.score > seen.score) best.set(g.memoryId, g);
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || (a.memoryId < b.memoryId ? -1 : 1))
    .slice(0, topK)
    .map((g) => ({
      ...cited.memories.get(g.memoryId)!,
      score: g.score,
      graph: { edge_ids: g.edgeIds, ...(g.path ? { path: g.path } : {}) },
    }));
}

export const noGraphNotice = (agentId: string) =>
  `the graph of agent ${agentId} is empty: distill has not run for its memories (POST /v1/distill) or found nothing in them`;
