// `svc audit verify [--org ID]`: recomputes each org's chain from genesis against its recorded
// head, prints one JSON line per org, and exits 1 naming the first broken row if any chain is
// broken.
import { openDatabase } from "../app/build-deps";
import { findOrgById, listOrgIds } from "../data/queries/orgs";
import { withSystem } from "../data/with-system";
import { verifyOrgChain } from "../domain/audit/list";
import { configOrExit } from "./config";

export async function runAuditVerify(flags: { org?: string }): Promise<void> {
  const config = configOrExit();
  const db = await openDatabase(config, "svc-audit-verify");
  let broken = 0;
  try {
    const orgIds = flags.org !== undefined ? [flags.org] : await withSystem(db, listOrgIds);
    if (flags.org !== undefined && !(await withSystem(db, (tx) => findOrgById(tx, flags.org!))))
      throw new Error(`org ${flags.org} does not exist`);
    for (const orgId of orgIds) {
      const verdict = await verifyOrgChain(db, orgId);
      if (verdict.ok) console.log(JSON.stringify({ org_id: orgId, ok: true, rows: verdict.rows }));
      else {
        broken++;
        console.log(
          JSON.stringify({
            org_id: orgId,
            ok: false,
            rows_checked: verdict.rows,
            first_broken_seq: verdict.firstBroken.seq,
            reason: verdict.firstBroken.reason,
          }),
        );
      }
    }
  } finally {
    await db.close();
  }
  if (broken > 0) {
    console.error(`svc: audit chain broken in ${broken} org(s)`);
    process.exit(1);
  }
}
