// The tenant registry. Runs through withSystem (CLI, boot, tasks) or read-only inside a tenant
// transaction.
import type { Tx } from "../pools";

export type OrgRow = { id: string; name: string; created_at: Date };

export async function findOrgByName(tx: Tx, name: string): Promise<OrgRow | null> {
  const rows = await tx<OrgRow[]>`SELECT id, name, created_at FROM orgs WHERE name = ${name}`;
  return rows[0] ?? null;
}

export async function findOrgById(tx: Tx, id: string): Promise<OrgRow | null> {
  const rows = await tx<OrgRow[]>`SELECT id, name, created_at FROM orgs WHERE id = ${id}`;
  return rows[0] ?? null;
}

/** Inserts or returns the existing org of that name (race-safe through the unique name). */
export async function upsertOrg(tx: Tx, id: string, name: string): Promise<OrgRow> {
  await tx`INSERT INTO orgs (id, name) VALUES (${id}, ${name}) ON CONFLICT (name) DO NOTHING`;
  const row = await findOrgByName(tx, name);
  if (!row) throw new Error(`org ${name} vanished after upsert`);
  return row;
}

export async function listOrgIds(tx: Tx): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`SELECT id FROM orgs ORDER BY created_at, id`;
  return rows.map((r) => r.id);
}
