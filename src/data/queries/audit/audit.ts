// audit_log, audit_heads and the drain's reads of audit_pending. All run in a tenant transaction
// except orgsWithPendingAudit (owner, drain_scan policy) and ensureAuditPartition (owner, DDL
// function).
import type { Tx } from "../../pools";

export type PendingForDrain = {
  id: string;
  occurred_us: string;
  operation: string;
  agent_id: string | null;
  key_id: string | null;
  request_id: string | null;
  target_ids: string[];
  detail: unknown;
};

export type AuditLogRow = PendingForDrain & {
  seq: string;
  occurred_at: Date;
  prev_hash: string;
  hash: string;
  org_id: string;
};

const MICROS = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint::text`;

export async function orgsWithPendingAudit(tx: Tx): Promise<string[]> {
  const rows = await tx<{ org_id: string }[]>`SELECT DISTINCT org_id FROM audit_pending`;
  return rows.map((r) => r.org_id);
}

export async function ensureAuditPartition(tx: Tx, monthStart: string): Promise<string> {
  const rows = await tx<
    { name: string }[]
  >`SELECT svc_ensure_audit_partition(${monthStart}::date) AS name`;
  return rows[0]!.name;
}

export async function lockOrgChain(tx: Tx, orgId: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`svc.audit:${orgId}`}, 0))`;
}

export async function readChainHead(tx: Tx): Promise<{ seq: number; hash: string } | null> {
  const rows = await tx<
    { seq: string; hash: string }[]
  >`SELECT seq::text, encode(hash, 'hex') AS hash FROM audit_heads`;
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : null;
}

export async function readPendingBatch(tx: Tx, limit: number): Promise<PendingForDrain[]> {
  return tx<PendingForDrain[]>`
    SELECT id::text, ${tx.unsafe(MICROS("occurred_at"))} AS occurred_us, operation, agent_id, key_id, request_id, target_ids, detail
    FROM audit_pending ORDER BY audit_pending.id LIMIT ${limit}`;
}

/**
 * Moves the given pending rows into the log with their computed chain fields, then deletes them.
 */
export async function appendFromPending(
  tx: Tx,
  orgId: string,
  rows: Array<{ id: string; seq: number; prev_hash: string; hash: string }>,
): Promise<void> {
  const ids = rows.map((r) => r.id);
  await tx`
    INSERT INTO audit_log (org_id, seq, occurred_at, operation, agent_id, key_id, request_id, target_ids, detail, prev_hash, hash)
    SELECT p.org_id, v.seq, p.occurred_at, p.operation, p.agent_id, p.key_id, p.request_id, p.target_ids, p.detail,
           decode(v.prev_hash, 'hex'), decode(v.hash, 'hex')
    FROM unnest(${ids}::bigint[], ${rows.map((r) => r.seq)}::bigint[], ${rows.map((r) => r.prev_hash)}::text[], ${rows.map((r) => r.hash)}::text[])
         AS v(id, seq, prev_hash, hash)
    JOIN audit_pending p ON p.id = v.id`;
  await tx`DELETE FROM audit_pending WHERE id = ANY(${ids}::bigint[])`;
  const last = rows[rows.length - 1]!;
  await tx`
    INSERT INTO audit_heads (org_id, seq, hash) VALUES (${orgId}, ${last.seq}, decode(${last.hash}, 'hex'))
    ON CONFLICT (org_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, updated_at = now()`;
}

/**
 * `fromSeq` is exclusive: rows after it in `order` (greater when ascending, smaller when
 * descending).
 */
export type AuditFilter = {
  agentId?: string;
  operation?: string;
  since?: Date;
  before?: Date;
  fromSeq: number;
  order: "asc" | "desc";
  limit: number;
};

const LOG_COLUMNS = `org_id, seq::text, occurred_at, ${MICROS("occurred_at")} AS occurred_us, operation, agent_id, key_id, request_id,
  target_ids, detail, encode(prev_hash, 'hex') AS prev_hash, encode(hash, 'hex') AS hash`;

export async function listAuditLog(tx: Tx, f: AuditFilter): Promise<AuditLogRow[]> {
  return tx<AuditLogRow[]>`
    SELECT ${tx.unsafe(LOG_COLUMNS)} FROM audit_log
    WHERE ${f.order === "asc" ? tx`seq > ${f.fromSeq}` : tx`seq < ${f.fromSeq}`}
      ${f.agentId !== undefined ? tx`AND agent_id = ${f.agentId}` : tx``}
      ${f.operation !== undefined ? tx`AND operation = ${f.operation}` : tx``}
      ${f.since !== undefined ? tx`AND occurred_at >= ${f.since}` : tx``}
      ${f.before !== undefined ? tx`AND occurred_at < ${f.before}` : tx``}
    ORDER BY ${f.order === "asc" ? tx`audit_log.seq` : tx`audit_log.seq DESC`} LIMIT ${f.limit}`;
}

/** One page of the whole chain in seq order, for verification. */
export async function readChainPage(
  tx: Tx,
  afterSeq: number,
  limit: number,
): Promise<AuditLogRow[]> {
  return tx<
    AuditLogRow[]
  >`SELECT ${tx.unsafe(LOG_COLUMNS)} FROM audit_log WHERE seq > ${afterSeq} ORDER BY audit_log.seq LIMIT ${limit}`;
}
