// sessions rows; tenant transactions only.
import type { Tx } from "../../pools";

export type SessionRow = {
  session_id: string;
  agent_id: string;
  metadata: Record<string, unknown>;
  started_at: Date;
  ended_at: Date | null;
};
const COLUMNS = ["session_id", "agent_id", "metadata", "started_at", "ended_at"] as const;

export async function insertSession(
  tx: Tx,
  row: { org_id: string; session_id: string; agent_id: string; metadata: Record<string, unknown> },
): Promise<SessionRow> {
  const rows = await tx<
    SessionRow[]
  >`INSERT INTO sessions ${tx({ ...row, metadata: tx.json(row.metadata as never) })} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}

export async function findSession(
  tx: Tx,
  sessionId: string,
  lock = false,
): Promise<SessionRow | null> {
  const rows = await tx<
    SessionRow[]
  >`SELECT ${tx(COLUMNS)} FROM sessions WHERE session_id = ${sessionId} ${lock ? tx`FOR UPDATE` : tx``}`;
  return rows[0] ?? null;
}

export async function markSessionEnded(tx: Tx, sessionId: string): Promise<SessionRow> {
  const rows = await tx<
    SessionRow[]
  >`UPDATE sessions SET ended_at = now() WHERE session_id = ${sessionId} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}
