// Refine scheduling flags in the tenant registry (orgs); run through withSystem only.
import type { Tx } from "../../../pools";

export async function setRefineOptIn(tx: Tx, orgId: string, optedIn: boolean): Promise<void> {
  await tx`UPDATE orgs SET refine_opted_in_at = CASE WHEN ${optedIn} THEN coalesce(refine_opted_in_at, now()) ELSE NULL END WHERE id = ${orgId}`;
}

/**
 * Claims up to `limit` opted-in orgs not scheduled within the last `intervalSeconds`, oldest (never
 * first) first, and stamps them in the same statement so two concurrent ticks never pick the same
 * org twice.
 */
export async function claimDueRefineOrgs(
  tx: Tx,
  intervalSeconds: number,
  limit: number,
): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`
    WITH due AS (
      SELECT id, refine_last_scheduled_at AS previous FROM orgs WHERE refine_opted_in_at IS NOT NULL
        AND (refine_last_scheduled_at IS NULL OR refine_last_scheduled_at <= now() - make_interval(secs => ${intervalSeconds}))
      ORDER BY refine_last_scheduled_at NULLS FIRST, id LIMIT ${limit} FOR UPDATE SKIP LOCKED),
    stamped AS (UPDATE orgs SET refine_last_scheduled_at = now() FROM due WHERE orgs.id = due.id RETURNING orgs.id, due.previous)
    SELECT id FROM stamped ORDER BY previous NULLS FIRST, id`;
  return rows.map((r) => r.id);
}
