// relation_types rows: a tenant's overrides of the built-in relation flags
// (src/domain/graph/relations.ts).
import type { Tx } from "../../pools";

export type RelationOverrideRow = {
  relation: string;
  functional: boolean;
  transitive: boolean;
  inverse: string | null;
  updated_at: Date;
};

export async function listRelationOverrides(tx: Tx, orgId: string): Promise<RelationOverrideRow[]> {
  return tx<
    RelationOverrideRow[]
  >`SELECT relation, functional, transitive, inverse, updated_at FROM relation_types WHERE org_id = ${orgId} ORDER BY relation`;
}

export async function upsertRelationOverride(
  tx: Tx,
  orgId: string,
  row: { relation: string; functional: boolean; transitive: boolean; inverse: string | null },
): Promise<RelationOverrideRow> {
  const [saved] = await tx<RelationOverrideRow[]>`
    INSERT INTO relation_types (org_id, relation, functional, transitive, inverse)
    VALUES (${orgId}, ${row.relation}, ${row.functional}, ${row.transitive}, ${row.inverse})
    ON CONFLICT (org_id, relation) DO UPDATE SET functional = EXCLUDED.functional, transitive = EXCLUDED.transitive,
      inverse = EXCLUDED.inverse, updated_at = now()
    RETURNING relation, functional, transitive, inverse, updated_at`;
  return saved!;
}

export async function deleteRelationOverride(
  tx: Tx,
  orgId: string,
  relation: string,
): Promise<boolean> {
  const rows =
    await tx`DELETE FROM relation_types WHERE org_id = ${orgId} AND relation = ${relation} RETURNING relation`;
  return rows.length === 1;
}
