// feedback rows (POST /v1/feedback) and the edge lookup that checks a signal's target. Tenant
// transactions only.
import type { Tx } from "../../pools";

export type FeedbackRow = {
  feedback_id: string;
  agent_id: string | null;
  target_kind: "memory" | "edge";
  target_id: string;
  signal: number;
  note: string | null;
  key_id: string | null;
  created_at: Date;
  applied_at: Date | null;
  applied_job_id: string | null;
};

export async function insertFeedback(
  tx: Tx,
  row: Omit<FeedbackRow, "created_at" | "applied_at" | "applied_job_id"> & { org_id: string },
): Promise<FeedbackRow> {
  const rows = await tx<FeedbackRow[]>`INSERT INTO feedback ${tx(row)}
    RETURNING feedback_id, agent_id, target_kind, target_id, signal, note, key_id, created_at, applied_at, applied_job_id`;
  return rows[0]!;
}

export async function findEdgeTarget(
  tx: Tx,
  edgeId: string,
): Promise<{
  edge_id: string;
  agent_id: string;
  expired_at: Date | null;
  expired_reason: string | null;
} | null> {
  const rows = await tx<
    { edge_id: string; agent_id: string; expired_at: Date | null; expired_reason: string | null }[]
  >`
    SELECT edge_id, agent_id, expired_at, expired_reason FROM edges WHERE edge_id = ${edgeId}`;
  return rows[0] ?? null;
}
