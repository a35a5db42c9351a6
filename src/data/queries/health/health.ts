// Liveness queries that touch no tenant data.
import type { Sql, Tx } from "../../pools";

export async function pingDatabase(sql: Sql): Promise<void> {
  await sql`SELECT 1`;
}

export async function latestWorkerPulse(
  sql: Sql,
): Promise<{ worker_id: string; seen_at: Date } | null> {
  const rows = await sql<
    { worker_id: string; seen_at: Date }[]
  >`SELECT worker_id, seen_at FROM worker_heartbeats ORDER BY seen_at DESC LIMIT 1`;
  return rows[0] ?? null;
}

export async function recordWorkerPulse(
  tx: Tx | Sql,
  workerId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await tx`INSERT INTO worker_heartbeats (worker_id, seen_at, detail) VALUES (${workerId}, now(), ${tx.json(detail as never)})
           ON CONFLICT (worker_id) DO UPDATE SET seen_at = EXCLUDED.seen_at, detail = EXCLUDED.detail`;
}
