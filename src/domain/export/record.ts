// The audit row of an export (operation `export`, detail `via`: `api` or `cli`), written before
// its first line, in its own transaction, by every way of exporting: GET /v1/export and
// `svc export` record the same row through here.
import type { Database } from "../../data/pools";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";

export async function recordExport(db: Database, actor: Actor, via: string): Promise<void> {
  await withTenant(db, actor.orgId, (tx) =>
    recordAudit(tx, actor, { operation: "export", detail: { via } }),
  );
}
