// Memory and disk of a tier: the memories table (heap, TOAST, each index) and the resident set of
// the bench process, which serves the app in-process (so it includes the load generator's share).
import postgres from "postgres";
import type { BenchApp } from "./bench-app";

export type Storage = {
  rows: number;
  heapMB: number;
  toastMB: number;
  indexesMB: Record<string, number>;
  totalMB: number;
  databaseMB: number;
  rssMB: number;
};

const mb = (bytes: string | number) => Math.round(Number(bytes) / 2 ** 20);

export async function storage(app: BenchApp): Promise<Storage> {
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [t] = await owner<
      { rows: string; heap: string; toast: string; total: string; db: string }[]
    >`
      -- Live row versions from the statistics collector: reltuples is -1 until the first ANALYZE, and
      -- the owner sees no rows itself (FORCE ROW LEVEL SECURITY).
      SELECT (SELECT n_live_tup FROM pg_stat_user_tables WHERE relid = 'memories'::regclass) AS rows, pg_relation_size('memories') AS heap,
        coalesce(pg_total_relation_size(NULLIF(reltoastrelid, 0)), 0) AS toast,
        pg_total_relation_size('memories') AS total, pg_database_size(current_database()) AS db
      FROM pg_class WHERE oid = 'memories'::regclass`;
    const indexes = await owner<{ name: string; size: string }[]>`
      SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS size
      FROM pg_index WHERE indrelid = 'memories'::regclass ORDER BY 2 DESC`;
    return {
      rows: Number(t!.rows),
      heapMB: mb(t!.heap),
      toastMB: mb(t!.toast),
      totalMB: mb(t!.total),
      databaseMB: mb(t!.db),
      indexesMB: Object.fromEntries(indexes.map((i) => [i.name, mb(i.size)])),
      rssMB: mb(process.memoryUsage().rss),
    };
  } finally {
    await owner.end();
  }
}
