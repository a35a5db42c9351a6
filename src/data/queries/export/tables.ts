// Export and import of a tenant's rows, table by table. Rows travel as jsonb text (never parsed in
// JavaScript, so bigint MinHash keys and float4 values keep every digit); the import writes them
// back with jsonb_populate_recordset under the importing tenant's org_id and skips rows that
// already exist.
import type { Tx } from "../../pools";

/** Tenant tables in import order (parents first), each with its primary key after org_id. */
export const EXPORT_TABLES = [
  { kind: "dataset", table: "datasets", key: ["dataset_id"] },
  { kind: "memory", table: "memories", key: ["memory_id", "version"] },
  { kind: "memory_access", table: "memory_access", key: ["memory_id"] },
  { kind: "session", table: "sessions", key: ["session_id"] },
  { kind: "conversation", table: "conversations", key: ["conversation_id"] },
  { kind: "turn", table: "conversation_turns", key: ["conversation_id", "turn_index"] },
  { kind: "memo", table: "memos", key: ["memo_id"] },
  {
    kind: "memo_alias",
    table: "memo_aliases",
    key: ["agent_id", "normalized_alias", "memo_type", "memo_id"],
  },
  { kind: "memo_key", table: "memo_keys", key: ["key_kind", "key", "memo_id"] },
  { kind: "memo_source", table: "memo_sources", key: ["memo_id", "memory_id", "memory_version"] },
  { kind: "edge", table: "edges", key: ["edge_id"] },
  { kind: "edge_source", table: "edge_sources", key: ["edge_id", "memory_id", "memory_version"] },
  { kind: "distilled", table: "distilled_memories", key: ["memory_id", "version", "extractor"] },
  { kind: "relation_type", table: "relation_types", key: ["relation"] },
  { kind: "feedback", table: "feedback", key: ["feedback_id"] },
] as const;

export type ExportTable = (typeof EXPORT_TABLES)[number];

/**
 * Columns an import can write: every column but org_id and generated ones (edges.search_document).
 */
export async function writableColumns(tx: Tx, table: string): Promise<string[]> {
  const rows = await tx<{ column_name: string }[]>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER' AND column_name <> 'org_id'
    ORDER BY ordinal_position`;
  return rows.map((r) => r.column_name);
}

/** Timestamps render in UTC, so two instances export identical text for identical rows. */
export async function useUtc(tx: Tx): Promise<void> {
  await tx`SELECT set_config('TimeZone', 'UTC', true)`;
}

/**
 * The table's rows as jsonb text holding only `columns`, in primary-key order, 1,000 at a time: one
 * SQL cursor per table, so the table is read once however deep the export is (OFFSET paging read it
 * again for every page). A cursor is planned for its first rows, so it walks the primary key rather
 * than sorting the table, and each FETCH is a statement of its own under statement_timeout. The
 * cursor is closed when exhausted; abandoned, it ends with the transaction.
 */
export async function* tableRows(
  tx: Tx,
  table: ExportTable,
  columns: string[],
): AsyncGenerator<string[]> {
  await tx`
    DECLARE svc_export_rows NO SCROLL CURSOR FOR
    SELECT to_jsonb(r)::text AS d FROM (SELECT ${tx(columns)} FROM ${tx(table.table)}) r
    ORDER BY ${tx(table.key as unknown as string[])}`;
  for (;;) {
    const rows = await tx<{ d: string }[]>`FETCH 1000 FROM svc_export_rows`;
    if (rows.length === 0) break;
    yield rows.map((r) => r.d);
  }
  await tx`CLOSE svc_export_rows`;
}

/**
 * Inserts rows given as jsonb texts under `orgId`; existing rows (any unique key) are left alone.
 * The column list opens with the helper so postgres.js renders identifiers (after `INSERT …
 * (org_id,` it would build values); the rows go as text, since a parameter cast straight to jsonb
 * would be JSON-encoded again.
 */
export async function insertRows(
  tx: Tx,
  orgId: string,
  table: ExportTable,
  columns: string[],
  rows: string[],
): Promise<number> {
  const inserted = await tx`
    INSERT INTO ${tx(table.table)} (${tx(columns)}, org_id)
    SELECT ${tx(columns)}, ${orgId} FROM jsonb_populate_recordset(NULL::${tx(table.table)}, ${`[${rows.join(",")}]`}::text::jsonb)
    ON CONFLICT DO NOTHING
    RETURNING 1`;
  return inserted.length;
}

/** One export per tenant at a time, across processes: held until the snapshot transaction ends. */
export async function tryExportLock(tx: Tx): Promise<boolean> {
  const [row] = await tx<
    { got: boolean }[]
  >`SELECT pg_try_advisory_xact_lock(hashtextextended('svc.export:' || svc_current_org(), 0)) AS got`;
  return row!.got;
}

export async function countRows(tx: Tx, table: ExportTable): Promise<number> {
  const [row] = await tx<{ n: string }[]>`SELECT count(*)::text AS n FROM ${tx(table.table)}`;
  return Number(row!.n);
}

export async function readAuditHead(tx: Tx): Promise<{ seq: number; hash: string } | null> {
  const rows = await tx<
    { seq: string; hash: string }[]
  >`SELECT seq::text, encode(hash, 'hex') AS hash FROM audit_heads`;
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : null;
}
