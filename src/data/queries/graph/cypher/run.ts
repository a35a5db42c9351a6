// Runs a checked Cypher query in its own READ ONLY tenant transaction under a statement timeout,
// and returns the table plus the memo and edge ids behind the returned values. Read-only is the
// database's guarantee on top of the compiler's: nothing in this transaction can write, whatever
// the SQL says.
import type { CheckedCypher } from "./check";
import type { Database } from "../../../pools";
import { withTenantRead } from "../../../with-tenant";
import { compileCypher } from "./compile";
import type { CompileOptions } from "./fragments";

export type CypherRows = {
  columns: string[];
  rows: Array<Record<string, unknown>>;
  /** More rows matched than the row cap allowed. */
  truncated: boolean;
  /** Memo and edge ids behind the returned values, in order of first appearance. */
  memoIds: string[];
  edgeIds: string[];
};

type RawRow = Record<string, unknown> & { ground_memos: string; ground_edges: string };

const idsOf = (rows: RawRow[], key: "ground_memos" | "ground_edges") => [
  ...new Set(rows.flatMap((r) => (r[key] ? r[key].split(" ") : []))),
];

export async function runCypher(
  db: Database,
  checked: CheckedCypher,
  options: CompileOptions & { timeoutMs: number },
): Promise<CypherRows> {
  return withTenantRead(db, options.orgId, async (tx) => {
    // The compiler orders the joins (anchored end first); the planner keeps that order instead of
    // searching.
    await tx`SELECT set_config('statement_timeout', ${String(options.timeoutMs)}, true), set_config('join_collapse_limit', '1', true)`;
    const compiled = compileCypher(tx, checked, options);
    // Every query text compiles to new SQL: an unnamed statement keeps per-connection prepared
    // statements (and their memory) from growing with each distinct query a tenant sends.
    (compiled.sql as unknown as { options: { prepare?: boolean } }).options.prepare = false;
    const raw = (await compiled.sql) as unknown as RawRow[];
    const truncated = raw.length > options.maxRows;
    const kept = truncated ? raw.slice(0, options.maxRows) : raw;
    const rows = kept.map((r) =>
      Object.fromEntries(compiled.columns.map((name, i) => [name, r[`c${i}`] ?? null])),
    );
    return {
      columns: compiled.columns,
      rows,
      truncated,
      memoIds: idsOf(kept, "ground_memos"),
      edgeIds: idsOf(kept, "ground_edges"),
    };
  });
}
