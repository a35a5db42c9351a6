// Monthly audit partitions: this month's and next month's exist before any row needs them.
// Called by the daily svc.ensure_audit_partitions task and, once per month per process, by the
// drain.
import { ensureAuditPartition } from "../../data/queries/audit/audit";
import type { Database } from "../../data/pools";
import { withSystem } from "../../data/with-system";

function monthStart(date: Date, offsetMonths: number): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offsetMonths, 1));
  return d.toISOString().slice(0, 10);
}

/** Returns the partition names ensured (idempotent; safe under concurrent callers). */
export async function ensureAuditPartitions(db: Database, now: Date): Promise<string[]> {
  return withSystem(db, async (tx) => [
    await ensureAuditPartition(tx, monthStart(now, 0)),
    await ensureAuditPartition(tx, monthStart(now, 1)),
  ]);
}
