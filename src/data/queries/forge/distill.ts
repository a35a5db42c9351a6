// Distill's reads and bookkeeping: the latest versions of the requested memories, which versions
// were already distilled, and distilled_memories rows.
import type { Tx } from "../../pools";

export type DistillCandidate = {
  memory_id: string;
  version: number;
  agent_id: string;
  content: string;
  metadata: Record<string, unknown>;
  /**
   * The event time the memory's facts are placed at when the text gives none (see docs/graph.md).
   */
  reference_time: Date;
  /** false: forgotten (deleted) or past its TTL. */
  live: boolean;
};

/**
 * The latest version of each id (any agent, forgotten ones too, so the caller can say why it skips
 * one).
 */
export async function latestVersions(
  tx: Tx,
  orgId: string,
  memoryIds: string[],
): Promise<DistillCandidate[]> {
  if (memoryIds.length === 0) return [];
  return tx<DistillCandidate[]>`
    SELECT DISTINCT ON (memory_id) memory_id, version, agent_id, content, metadata, occurred_at AS reference_time,
      (valid_to IS NULL AND (expires_at IS NULL OR expires_at > now())) AS live
    FROM memories WHERE org_id = ${orgId} AND memory_id = ANY(${memoryIds}::text[])
    ORDER BY memory_id, version DESC`;
}

/**
 * The versions (of these memories) already distilled: by any job for `extractor`, or by `jobId`
 * with any extractor.
 */
export async function distilledVersions(
  tx: Tx,
  orgId: string,
  versions: Array<{ memory_id: string; version: number }>,
  extractor: string,
  jobId: string,
): Promise<Array<{ memory_id: string; version: number; job_id: string }>> {
  if (versions.length === 0) return [];
  return tx<Array<{ memory_id: string; version: number; job_id: string }>>`
    SELECT DISTINCT ON (d.memory_id, d.version) d.memory_id, d.version, d.job_id
    FROM unnest(${versions.map((v) => v.memory_id)}::text[], ${versions.map((v) => v.version)}::int[]) AS v(memory_id, version)
    JOIN distilled_memories d ON d.org_id = ${orgId} AND d.memory_id = v.memory_id AND d.version = v.version
    WHERE d.extractor = ${extractor} OR d.job_id = ${jobId}
    ORDER BY d.memory_id, d.version, (d.job_id = ${jobId}) DESC`;
}

export type DistilledRow = {
  memory_id: string;
  version: number;
  extractor: string;
  memos_found: number;
  edges_found: number;
};

export async function recordDistilled(
  tx: Tx,
  orgId: string,
  jobId: string,
  rows: DistilledRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({ org_id: orgId, job_id: jobId, ...r }));
  await tx`INSERT INTO distilled_memories ${tx(values)} ON CONFLICT DO NOTHING`;
}

/**
 * Older versions of these memories that still ground memos or edges: what a re-distill after a
 * PATCH retires.
 */
export async function supersededSourceVersions(
  tx: Tx,
  orgId: string,
  versions: Array<{ memory_id: string; version: number }>,
): Promise<Array<{ memory_id: string; version: number }>> {
  if (versions.length === 0) return [];
  return tx<Array<{ memory_id: string; version: number }>>`
    SELECT v.memory_id, v.version FROM unnest(${versions.map((v) => v.memory_id)}::text[], ${versions.map((v) => v.version)}::int[]) AS v(memory_id, version)
    WHERE EXISTS (SELECT 1 FROM edge_sources s WHERE s.org_id = ${orgId} AND s.memory_id = v.memory_id AND s.memory_version < v.version)
       OR EXISTS (SELECT 1 FROM memo_sources s WHERE s.org_id = ${orgId} AND s.memory_id = v.memory_id AND s.memory_version < v.version)`;
}
