// The reweight pass's reads and writes: pending feedback (drained or, in a dry run, only read), the
// weights and importances it blends, and the edges a memory's feedback nudges.
import type { Tx } from "../../../pools";
import { edgeInScope, type RefineScope } from "./scope";

export type PendingFeedback = {
  feedback_id: string;
  target_kind: "memory" | "edge";
  target_id: string;
  signal: -1 | 0 | 1;
  created_at: Date;
};

function feedbackInScope(tx: Tx, scope: RefineScope) {
  if (scope.agentId === null && scope.datasetId === null) return tx``;
  return tx`AND (
    (f.target_kind = 'edge' AND EXISTS (SELECT 1 FROM edges e WHERE e.edge_id = f.target_id ${edgeInScope(tx, scope, "e")}))
    OR (f.target_kind = 'memory' AND EXISTS (SELECT 1 FROM memories m WHERE m.memory_id = f.target_id AND m.valid_to IS NULL
      ${scope.agentId === null ? tx`` : tx`AND m.agent_id = ${scope.agentId}`}
      ${scope.datasetId === null ? tx`` : tx`AND m.dataset_id = ${scope.datasetId}`})))`;
}

// Signals are taken in feedback_id order: ids start with their creation time in milliseconds, so
// this is time order, and a dry run (keyset on the id) folds them in exactly the order a real run
// would.

/**
 * Marks the oldest `limit` pending signals in scope applied by `jobId` and returns them, oldest
 * first.
 */
export async function drainFeedback(
  tx: Tx,
  scope: RefineScope,
  jobId: string,
  limit: number,
): Promise<PendingFeedback[]> {
  const rows = await tx<PendingFeedback[]>`
    UPDATE feedback SET applied_at = now(), applied_job_id = ${jobId}
    WHERE feedback_id IN (SELECT f.feedback_id FROM feedback f WHERE f.applied_at IS NULL ${feedbackInScope(tx, scope)}
      ORDER BY f.feedback_id LIMIT ${limit} FOR UPDATE)
    RETURNING feedback_id, target_kind, target_id, signal, created_at`;
  return rows.sort((a, b) => (a.feedback_id < b.feedback_id ? -1 : 1));
}

/** Dry run: the same signals without draining them, after a keyset cursor. */
export async function peekFeedback(
  tx: Tx,
  scope: RefineScope,
  afterId: string | null,
  limit: number,
): Promise<PendingFeedback[]> {
  return tx<
    PendingFeedback[]
  >`SELECT f.feedback_id, f.target_kind, f.target_id, f.signal, f.created_at FROM feedback f
    WHERE f.applied_at IS NULL ${feedbackInScope(tx, scope)} ${afterId === null ? tx`` : tx`AND f.feedback_id > ${afterId}`}
    ORDER BY f.feedback_id LIMIT ${limit}`;
}

export async function currentEdgeWeights(tx: Tx, edgeIds: string[]): Promise<Map<string, number>> {
  const rows = await tx<
    { edge_id: string; weight: number }[]
  >`SELECT edge_id, weight FROM edges WHERE edge_id = ANY(${edgeIds}::text[]) AND expired_at IS NULL`;
  return new Map(rows.map((r) => [r.edge_id, r.weight]));
}

export async function currentImportance(tx: Tx, memoryIds: string[]): Promise<Map<string, number>> {
  const rows = await tx<
    { memory_id: string; importance: number }[]
  >`SELECT memory_id, importance FROM memories WHERE memory_id = ANY(${memoryIds}::text[]) AND valid_to IS NULL`;
  return new Map(rows.map((r) => [r.memory_id, r.importance]));
}

/**
 * Current edges grounded in each memory (via edge_sources): where a memory's feedback is felt in
 * the graph.
 */
export async function edgesDerivedFrom(
  tx: Tx,
  memoryIds: string[],
): Promise<Array<{ memory_id: string; edge_id: string }>> {
  return tx<
    { memory_id: string; edge_id: string }[]
  >`SELECT DISTINCT s.memory_id, s.edge_id FROM edge_sources s JOIN edges e ON e.edge_id = s.edge_id
    WHERE s.memory_id = ANY(${memoryIds}::text[]) AND e.expired_at IS NULL`;
}

export type EdgeReweight = {
  edge_id: string;
  weight: number;
  signals: number;
  reinforced: boolean;
};

export async function writeEdgeWeights(tx: Tx, rows: EdgeReweight[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`UPDATE edges e SET weight = v.weight, feedback_count = e.feedback_count + v.signals,
      last_reinforced_at = CASE WHEN v.reinforced = 1 THEN now() ELSE e.last_reinforced_at END
    FROM unnest(${rows.map((r) => r.edge_id)}::text[], ${rows.map((r) => r.weight)}::real[], ${rows.map((r) => r.signals)}::int[], ${rows.map((r) => (r.reinforced ? 1 : 0))}::int[])
      AS v(edge_id, weight, signals, reinforced)
    WHERE e.edge_id = v.edge_id AND e.expired_at IS NULL`;
}

/**
 * In place on the current version, like importance decay: feedback is maintenance, not a new
 * version.
 */
export async function writeImportance(
  tx: Tx,
  rows: Array<{ memory_id: string; importance: number }>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx`UPDATE memories m SET importance = v.importance
    FROM unnest(${rows.map((r) => r.memory_id)}::text[], ${rows.map((r) => r.importance)}::real[]) AS v(memory_id, importance)
    WHERE m.memory_id = v.memory_id AND m.valid_to IS NULL`;
}

/**
 * Dry run: the value this job already reported for each target, so later batches continue from it.
 */
export async function reportedValues(
  tx: Tx,
  jobId: string,
  pass: string,
  targetIds: string[],
): Promise<Map<string, number>> {
  const rows = await tx<
    { target_id: string; value: number }[]
  >`SELECT DISTINCT ON (target_id) target_id, (detail->>'to')::float8 AS value
    FROM refine_changes WHERE job_id = ${jobId} AND pass = ${pass} AND target_id = ANY(${targetIds}::text[]) ORDER BY target_id, seq DESC`;
  return new Map(rows.map((r) => [r.target_id, r.value]));
}
