// The relation flags in force for one tenant: the built-in table (relations.ts) with the tenant's
// relation_types rows laid over it. Only `functional` changes what distill does (supersession).
import { listRelationOverrides } from "../../data/queries/graph/relations";
import type { Tx } from "../../data/pools";
import { DEFAULT_RELATION_TYPES } from "./relations";

export type EffectiveRelation = {
  relation: string;
  functional: boolean;
  transitive: boolean;
  inverse: string | null;
  source: "default" | "tenant";
  description: string | null;
};

export async function effectiveRelations(
  tx: Tx,
  orgId: string,
): Promise<Map<string, EffectiveRelation>> {
  const table = new Map<string, EffectiveRelation>(
    Object.entries(DEFAULT_RELATION_TYPES).map(([relation, f]) => [
      relation,
      {
        relation,
        functional: f.functional,
        transitive: f.transitive,
        inverse: f.inverse ?? null,
        source: "default",
        description: f.description,
      },
    ]),
  );
  for (const row of await listRelationOverrides(tx, orgId)) {
    table.set(row.relation, {
      relation: row.relation,
      functional: row.functional,
      transitive: row.transitive,
      inverse: row.inverse,
      source: "tenant",
      description: table.get(row.relation)?.description ?? null,
    });
  }
  return table;
}

/** Unknown relations (an extractor's lemma form) are many-valued: they never supersede anything. */
export const isFunctional = (table: Map<string, EffectiveRelation>, relation: string) =>
  table.get(relation)?.functional ?? false;
