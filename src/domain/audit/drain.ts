// The audit drain: moves pending rows into each org's hash chain. Per org and per batch, one tenant
// transaction takes the org's advisory lock, reads the head, appends in pending-id order with a
// gapless seq, deletes what it appended and moves the head: a crash anywhere leaves the pending
// rows in place. The same transaction counts the accesses that recall rows record
// (memory-access.ts), so a recall's access is counted exactly once, when its audit row joins the
// chain.
import { applyRecallAccess } from "../../data/queries/audit/memory-access";
import {
  appendFromPending,
  lockOrgChain,
  orgsWithPendingAudit,
  readChainHead,
  readPendingBatch,
} from "../../data/queries/audit/audit";
import type { Database } from "../../data/pools";
import { withSystem } from "../../data/with-system";
import { withTenant } from "../../data/with-tenant";
import { chainHash, GENESIS_HASH_HEX } from "./canonical";
import { ensureAuditPartitions } from "./partitions";

export type DrainOptions = { orgId?: string; batchSize?: number };

const partitionsEnsuredFor = new Set<string>();

async function ensurePartitionsOnce(db: Database, now: Date): Promise<void> {
  const month = now.toISOString().slice(0, 7);
  if (partitionsEnsuredFor.has(month)) return;
  await ensureAuditPartitions(db, now);
  partitionsEnsuredFor.add(month);
}

async function drainBatch(db: Database, orgId: string, batchSize: number): Promise<number> {
  return withTenant(db, orgId, async (tx) => {
    await lockOrgChain(tx, orgId);
    const pending = await readPendingBatch(tx, batchSize);
    if (pending.length === 0) return 0;
    const head = await readChainHead(tx);
    let seq = head?.seq ?? 0;
    let prev = head?.hash ?? GENESIS_HASH_HEX;
    const appended = pending.map((p) => {
      seq++;
      const hash = chainHash(prev, {
        org_id: orgId,
        seq,
        occurred_at: Number(p.occurred_us),
        operation: p.operation,
        agent_id: p.agent_id,
        key_id: p.key_id,
        request_id: p.request_id,
        target_ids: p.target_ids,
        detail: p.detail,
      });
      const row = { id: p.id, seq, prev_hash: prev, hash };
      prev = hash;
      return row;
    });
    await applyRecallAccess(
      tx,
      orgId,
      pending.filter((p) => p.operation === "recall").map((p) => p.id),
    );
    await appendFromPending(tx, orgId, appended);
    return appended.length;
  });
}

export async function drainAudit(
  db: Database,
  options: DrainOptions = {},
): Promise<{ drained: number }> {
  const batchSize = options.batchSize ?? 500;
  await ensurePartitionsOnce(db, new Date());
  const orgIds =
    options.orgId !== undefined ? [options.orgId] : await withSystem(db, orgsWithPendingAudit);
  let drained = 0;
  for (const orgId of orgIds) {
    for (;;) {
      const n = await drainBatch(db, orgId, batchSize);
      drained += n;
      if (n < batchSize) break;
    }
  }
  return { drained };
}
