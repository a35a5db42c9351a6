// audit_pending inserts: one row per audited effect, inside the effect's own transaction.
import type { Tx } from "../../pools";

export type PendingAuditRow = {
  org_id: string;
  operation: string;
  agent_id: string | null;
  key_id: string | null;
  request_id: string | null;
  target_ids: string[];
  detail: Record<string, unknown>;
};

export async function insertPendingAudit(tx: Tx, rows: PendingAuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`INSERT INTO audit_pending ${tx(rows.map((r) => ({ ...r, detail: tx.json(r.detail as never) })))}`;
}
