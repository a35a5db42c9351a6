// importStream: loads an export stream into the acting tenant in ONE transaction, so a stream
// refused at line N (altered, truncated, unknown record) imports nothing. Rows keep their ids and
// versions; rows that already exist are skipped, so importing the same stream twice changes nothing
// the second time. Each batch of rows writes one audit row (operation `import`) naming the source
// org and chain head.
import type { Database } from "../../data/pools";
import {
  EXPORT_TABLES,
  insertRows,
  writableColumns,
  type ExportTable,
} from "../../data/queries/export/tables";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { invalidStream, lineVerifier, type Header } from "./format";

const BATCH = 500;
const TABLE_OF = new Map<string, ExportTable>(EXPORT_TABLES.map((t) => [t.kind, t]));

export type ImportResult = {
  source_org_id: string;
  source_audit_head: { seq: number; hash: string } | null;
  lines: number;
  rows: number;
  inserted: number;
  skipped: number;
  batches: number;
};

export async function importStream(
  db: Database,
  actor: Actor,
  lines: AsyncIterable<string>,
  progress?: (rows: number) => void,
): Promise<ImportResult> {
  return withTenant(db, actor.orgId, async (tx) => {
    const verifier = lineVerifier();
    const columns = new Map<string, string[]>();
    const result: ImportResult = {
      source_org_id: "",
      source_audit_head: null,
      lines: 0,
      rows: 0,
      inserted: 0,
      skipped: 0,
      batches: 0,
    };
    let pending: { table: ExportTable; rows: string[] } | null = null;

    const flush = async () => {
      if (!pending || pending.rows.length === 0) return;
      const { table, rows } = pending;
      if (!columns.has(table.table))
        columns.set(table.table, await writableColumns(tx, table.table));
      const inserted = await insertRows(tx, actor.orgId, table, columns.get(table.table)!, rows);
      await recordAudit(tx, actor, {
        operation: "import",
        detail: {
          kind: table.kind,
          rows: rows.length,
          inserted,
          source_org_id: result.source_org_id,
        },
      });
      result.batches++;
      result.rows += rows.length;
      result.inserted += inserted;
      result.skipped += rows.length - inserted;
      progress?.(result.rows);
      pending = null;
    };

    for await (const text of lines) {
      if (text === "") continue;
      const record = verifier.check(text);
      result.lines = record.line;
      if (record.kind === "header")
        result.source_org_id = (JSON.parse(record.data) as Header).org_id;
      else if (record.kind === "audit_head") result.source_audit_head = JSON.parse(record.data);
      else if (record.kind !== "end") {
        const table = TABLE_OF.get(record.kind);
        if (!table) throw invalidStream(record.line, `unknown record kind ${record.kind}`);
        if (pending && (pending.table !== table || pending.rows.length >= BATCH)) await flush();
        pending ??= { table, rows: [] };
        pending.rows.push(record.data);
      }
    }
    verifier.finish();
    await flush();
    await recordAudit(tx, actor, { operation: "import", detail: { kind: "summary", ...result } });
    return result;
  });
}
