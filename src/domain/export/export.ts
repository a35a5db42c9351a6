// exportTenant: one tenant's data as a chained NDJSON stream (format.ts), read in one snapshot: the
// header, every row of each exported table in import order (memories with every version, graph
// edges with their validity, …), the audit chain head with its hash, then the end record. One
// export per tenant runs at a time (an advisory lock held by the snapshot), whichever process
// serves it.
import type { Database } from "../../data/pools";
import {
  countRows,
  EXPORT_TABLES,
  readAuditHead,
  tableRows,
  tryExportLock,
  useUtc,
  writableColumns,
} from "../../data/queries/export/tables";
import { withTenantSnapshot } from "../../data/with-tenant";
import { exportInProgress } from "../../lib/errors";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, lineWriter, type Header } from "./format";

/** What a refused second export is told to wait: exports of large tenants take minutes. */
const BUSY_RETRY_SECONDS = 60;

export type Progress = (done: number, total: number) => void;

export type ExportHooks = {
  progress?: Progress;
  /** Called once the snapshot is taken and the tenant's export lock held, before the first line. */
  started?: () => void;
};

export async function exportTenant(
  db: Database,
  orgId: string,
  source: string,
  emit: (chunk: string) => Promise<void>,
  hooks: ExportHooks = {},
): Promise<{ rows: number }> {
  return withTenantSnapshot(db, orgId, async (tx) => {
    if (!(await tryExportLock(tx))) throw exportInProgress(BUSY_RETRY_SECONDS);
    hooks.started?.();
    await useUtc(tx);
    const writer = lineWriter();
    const header: Header = {
      format: EXPORT_FORMAT,
      version: EXPORT_FORMAT_VERSION,
      org_id: orgId,
      exported_at: new Date().toISOString(),
      source,
    };
    await emit(writer.line("header", JSON.stringify(header)));
    let total = 0;
    for (const table of EXPORT_TABLES) total += await countRows(tx, table);
    let done = 0;
    hooks.progress?.(done, total);
    for (const table of EXPORT_TABLES) {
      const columns = await writableColumns(tx, table.table);
      for await (const page of tableRows(tx, table, columns)) {
        await emit(page.map((row) => writer.line(table.kind, row)).join(""));
        done += page.length;
        hooks.progress?.(done, total);
      }
    }
    const head = await readAuditHead(tx);
    await emit(writer.line("audit_head", JSON.stringify(head ?? { seq: 0, hash: "0".repeat(64) })));
    await emit(writer.end());
    return { rows: done };
  });
}
