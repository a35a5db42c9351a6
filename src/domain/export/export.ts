// exportTenant: one tenant's data as a chained NDJSON stream (format.ts), read in one snapshot: the
// header, every row of each exported table in import order (memories with every version, graph edges
// with their validity, …), the audit chain head with its hash, then the end record.
import type { Database } from "../../data/pools";
import { countRows, EXPORT_TABLES, readAuditHead, readTablePage, useUtc, writableColumns } from "../../data/queries/export-tables";
import { withTenantSnapshot } from "../../data/with-tenant";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, lineWriter, type Header } from "./format";

const PAGE = 1000;

export type Progress = (done: number, total: number) => void;

export async function exportTenant(db: Database, orgId: string, source: string, emit: (chunk: string) => Promise<void>, progress?: Progress): Promise<{ rows: number }> {
  return withTenantSnapshot(db, orgId, async (tx) => {
    await useUtc(tx);
    const writer = lineWriter();
    const header: Header = { format: EXPORT_FORMAT, version: EXPORT_FORMAT_VERSION, org_id: orgId, exported_at: new Date().toISOString(), source };
    await emit(writer.line("header", JSON.stringify(header)));
    let total = 0;
    for (const table of EXPORT_TABLES) total += await countRows(tx, table);
    let done = 0;
    progress?.(done, total);
    for (const table of EXPORT_TABLES) {
      const columns = await writableColumns(tx, table.table);
      for (let offset = 0; ; offset += PAGE) {
        const page = await readTablePage(tx, table, columns, offset, PAGE);
        if (page.length > 0) await emit(page.map((row) => writer.line(table.kind, row)).join(""));
        done += page.length;
        progress?.(done, total);
        if (page.length < PAGE) break;
      }
    }
    const head = await readAuditHead(tx);
    await emit(writer.line("audit_head", JSON.stringify(head ?? { seq: 0, hash: "0".repeat(64) })));
    await emit(writer.end());
    return { rows: done };
  });
}
