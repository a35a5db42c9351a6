// Facts into edges: one edge per identity (src, relation, dst, valid_at) among live edges — a
// restated fact reinforces it — then provenance rows, then the closures: functional relations
// supersede older objects of the same subject, negated facts close the edge they deny (and never
// open one).
import {
  addEdgeSources,
  closeEdges,
  identityKey,
  openEdgesMatching,
  openEdgesOnSlots,
  upsertEdges,
  type EdgeSourceRow,
  type NewEdge,
} from "../../../data/queries/graph/edges";
import type { Tx } from "../../../data/pools";
import { isFunctional, type EffectiveRelation } from "../../graph/relation-types";
import { newId } from "../../../lib/ids";
import type { CleanRelation } from "./clean-extraction";
import { keyOf, uniqueBy } from "./resolve-entities";
import { functionalClosures, negationClosures, type Negation } from "./supersede";

export type FactMention = {
  relation: CleanRelation;
  memoryId: string;
  version: number;
  referenceTime: Date;
  extractor: string;
};

export type FactOutcome = { created: number; reinforced: number; superseded: number };

export async function writeFacts(
  tx: Tx,
  orgId: string,
  agentId: string,
  facts: FactMention[],
  memoOf: Map<string, string>,
  relations: Map<string, EffectiveRelation>,
): Promise<FactOutcome> {
  const memo = (e: CleanRelation["subject"]) => memoOf.get(keyOf(e))!;
  const asserted = facts.filter((f) => !f.relation.negated);

  const edges = new Map<string, NewEdge>();
  for (const f of asserted) {
    const r = f.relation;
    const candidate: NewEdge = {
      edge_id: newId("edge"),
      src_memo_id: memo(r.subject),
      relation: r.relation,
      dst_memo_id: memo(r.object),
      fact: r.fact,
      confidence: r.confidence,
      valid_at: r.validAt,
      invalid_at: r.invalidAt,
      observed_at: f.referenceTime,
    };
    const key = identityKey(candidate);
    const seen = edges.get(key);
    edges.set(
      key,
      seen
        ? {
            ...seen,
            confidence: Math.max(seen.confidence, candidate.confidence),
            invalid_at: seen.invalid_at ?? candidate.invalid_at,
            observed_at:
              seen.observed_at > candidate.observed_at ? seen.observed_at : candidate.observed_at,
          }
        : candidate,
    );
  }
  const upserted = await upsertEdges(tx, orgId, agentId, [...edges.values()]);
  const edgeOf = new Map(upserted.map((u) => [identityKey(u), u.edge_id]));

  const sources: EdgeSourceRow[] = uniqueBy(
    asserted.map((f) => {
      const r = f.relation;
      const edgeId = edgeOf.get(
        identityKey({
          src_memo_id: memo(r.subject),
          relation: r.relation,
          dst_memo_id: memo(r.object),
          valid_at: r.validAt,
        }),
      )!;
      return {
        edge_id: edgeId,
        memory_id: f.memoryId,
        memory_version: f.version,
        char_start: r.span?.[0] ?? null,
        char_end: r.span?.[1] ?? null,
        extractor: f.extractor,
        confidence: r.confidence,
      };
    }),
    (s) => `${s.edge_id}\u0000${s.memory_id}\u0000${s.memory_version}`,
  );
  const reinforced = await addEdgeSources(tx, orgId, sources);

  const slots = uniqueBy(
    upserted
      .filter((u) => isFunctional(relations, u.relation))
      .map((u) => ({ src_memo_id: u.src_memo_id, relation: u.relation })),
    (s) => `${s.src_memo_id}\u0000${s.relation}`,
  );
  let superseded = await closeEdges(
    tx,
    orgId,
    functionalClosures(await openEdgesOnSlots(tx, orgId, slots)),
  );

  const negations: Negation[] = facts
    .filter((f) => f.relation.negated)
    .map((f) => ({
      src_memo_id: memo(f.relation.subject),
      relation: f.relation.relation,
      dst_memo_id: memo(f.relation.object),
      at: f.relation.validAt ?? f.referenceTime,
    }));
  if (negations.length > 0)
    superseded += await closeEdges(
      tx,
      orgId,
      negationClosures(await openEdgesMatching(tx, orgId, negations), negations),
    );

  return {
    created: upserted.filter((u) => u.inserted).length,
    reinforced: reinforced.length,
    superseded,
  };
}
