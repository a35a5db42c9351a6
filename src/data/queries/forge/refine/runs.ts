// Refine run bookkeeping: the per-tenant lease, the graph lock, and the refine_changes log.
import type { Tx } from "../../../pools";

/**
 * Takes (or keeps) the tenant's lease for `holder`; returns the job holding it afterwards (ours
 * when taken).
 */
export async function acquireRefineLease(
  tx: Tx,
  orgId: string,
  jobId: string,
  holder: string,
  seconds: number,
): Promise<{ job_id: string; holder: string; expires_at: Date }> {
  await tx`
    INSERT INTO refine_leases (org_id, job_id, holder, expires_at) VALUES (${orgId}, ${jobId}, ${holder}, now() + make_interval(secs => ${seconds}))
    ON CONFLICT (org_id) DO UPDATE SET job_id = EXCLUDED.job_id, holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at,
      acquired_at = CASE WHEN refine_leases.holder = EXCLUDED.holder THEN refine_leases.acquired_at ELSE now() END
    WHERE refine_leases.holder = EXCLUDED.holder OR refine_leases.expires_at < now()`;
  const rows = await tx<
    { job_id: string; holder: string; expires_at: Date }[]
  >`SELECT job_id, holder, expires_at FROM refine_leases`;
  return rows[0]!;
}

/** Extends the lease if `holder` still has it; false when it lapsed and another run took it. */
export async function renewRefineLease(tx: Tx, holder: string, seconds: number): Promise<boolean> {
  const rows =
    await tx`UPDATE refine_leases SET expires_at = now() + make_interval(secs => ${seconds}) WHERE holder = ${holder} RETURNING 1`;
  return rows.length === 1;
}

export async function releaseRefineLease(tx: Tx, holder: string): Promise<void> {
  await tx`DELETE FROM refine_leases WHERE holder = ${holder}`;
}

/**
 * Serialises graph-changing batches of one tenant (refine and distill share the key, see forge.md
 * §7).
 */
export async function lockTenantGraph(tx: Tx): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtext('forge:' || svc_current_org()))`;
}

export type RefineChangeInput = {
  pass: string;
  action: string;
  target_kind: "memo" | "edge" | "memory";
  target_id: string;
  detail: Record<string, unknown>;
};
export type RefineChangeRow = RefineChangeInput & { seq: number; created_at: Date };

/**
 * Appends changes numbered from `firstSeq`; the caller keeps the counter in the job's progress
 * (same transaction).
 */
export async function insertRefineChanges(
  tx: Tx,
  orgId: string,
  jobId: string,
  firstSeq: number,
  changes: RefineChangeInput[],
): Promise<void> {
  for (let i = 0; i < changes.length; i += 2000) {
    await tx`INSERT INTO refine_changes ${tx(
      changes.slice(i, i + 2000).map((c, j) => ({
        org_id: orgId,
        job_id: jobId,
        seq: firstSeq + i + j,
        pass: c.pass,
        action: c.action,
        target_kind: c.target_kind,
        target_id: c.target_id,
        detail: c.detail as never,
      })),
    )}`;
  }
}

export async function listRefineChanges(
  tx: Tx,
  jobId: string,
  afterSeq: number,
  limit: number,
): Promise<RefineChangeRow[]> {
  return tx<
    RefineChangeRow[]
  >`SELECT seq, pass, action, target_kind, target_id, detail, created_at FROM refine_changes
    WHERE job_id = ${jobId} AND seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`;
}

/**
 * Targets this job already recorded with `action` in `pass`: a dry run's "as if applied" view of
 * its own earlier batches.
 */
export async function changedTargets(
  tx: Tx,
  jobId: string,
  pass: string,
  action: string,
): Promise<string[]> {
  const rows = await tx<
    { target_id: string }[]
  >`SELECT target_id FROM refine_changes WHERE job_id = ${jobId} AND pass = ${pass} AND action = ${action}`;
  return rows.map((r) => r.target_id);
}
