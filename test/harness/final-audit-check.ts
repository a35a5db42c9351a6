// After the whole run: drain what is pending and verify every org's audit chain from genesis. Any
// test that left a chain broken fails the run here, even if its own assertions passed.
import { openPostgres } from "../../src/data/pools";
import { listOrgIds } from "../../src/data/queries/orgs";
import { withSystem } from "../../src/data/with-system";
import { drainAudit } from "../../src/domain/audit/drain";
import { verifyOrgChain } from "../../src/domain/audit/list";

export async function verifyEveryAuditChain(
  databaseUrl: string,
): Promise<{ orgs: number; rows: number }> {
  const db = openPostgres(databaseUrl, undefined, {
    max: 2,
    statementTimeoutMs: 60_000,
    applicationName: "svc-final-check",
  });
  try {
    await drainAudit(db, {});
    const orgIds = await withSystem(db, listOrgIds);
    const broken: unknown[] = [];
    let rows = 0;
    for (const orgId of orgIds) {
      const verdict = await verifyOrgChain(db, orgId);
      rows += verdict.rows;
      if (!verdict.ok) broken.push({ orgId, ...verdict.firstBroken });
    }
    if (broken.length > 0)
      throw new Error(`audit chains broken after the run: ${JSON.stringify(broken)}`);
    return { orgs: orgIds.length, rows };
  } finally {
    await db.close();
  }
}
