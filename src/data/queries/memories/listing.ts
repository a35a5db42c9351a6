// GET /v1/memories and GET /v1/agents: one row per memory (current, or forgotten last version) in
// (created_at, memory_id) order, and the same rows grouped by agent; served by sql/0460's indexes.
import type { Tx } from "../../pools";
import { returning, type MemoryRow } from "./memories";

export type ListOrder = "asc" | "desc";

/**
 * A position in the listing: created_at as UTC text with microseconds (no row skipped or repeated).
 */
export type ListPosition = { createdKey: string; memoryId: string };

export type MemoryListFilter = {
  agentId?: string;
  memoryType?: string;
  datasetId?: string;
  /** One entry per metadata key: the objects of which `metadata` must contain any. */
  metadata: Array<Array<Record<string, unknown>>>;
  createdAfter?: Date;
  createdBefore?: Date;
  occurredAfter?: Date;
  occurredBefore?: Date;
  includeForgotten: boolean;
  order: ListOrder;
  after?: ListPosition;
  limit: number;
};

export type ListedMemoryRow = MemoryRow & { created_key: string };

const CREATED_KEY = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function anyContained(tx: Tx, alternatives: Array<Record<string, unknown>>) {
  return alternatives
    .slice(1)
    .reduce(
      (sql, alt) => tx`${sql} OR metadata @> ${tx.json(alt as never)}::jsonb`,
      tx`metadata @> ${tx.json(alternatives[0] as never)}::jsonb`,
    );
}

function afterPosition(tx: Tx, order: ListOrder, at: ListPosition) {
  return order === "desc"
    ? tx`AND (created_at, memory_id) < (${at.createdKey}::timestamptz, ${at.memoryId})`
    : tx`AND (created_at, memory_id) > (${at.createdKey}::timestamptz, ${at.memoryId})`;
}

export async function listMemoryRows(tx: Tx, f: MemoryListFilter): Promise<ListedMemoryRow[]> {
  // The two predicates match sql/0460's partial indexes (the first implies their predicate).
  const state = f.includeForgotten
    ? tx`(valid_to IS NULL OR deleted_at IS NOT NULL)`
    : tx`valid_to IS NULL AND (expires_at IS NULL OR expires_at > now())`;
  return tx<ListedMemoryRow[]>`
    SELECT ${returning(tx)}, ${tx.unsafe(CREATED_KEY)} AS created_key FROM memories
    WHERE ${state}
      ${f.agentId !== undefined ? tx`AND agent_id = ${f.agentId}` : tx``}
      ${f.memoryType !== undefined ? tx`AND memory_type = ${f.memoryType}` : tx``}
      ${f.datasetId !== undefined ? tx`AND dataset_id = ${f.datasetId}` : tx``}
      ${f.metadata.reduce((sql, any) => tx`${sql} AND (${anyContained(tx, any)})`, tx``)}
      ${f.createdAfter ? tx`AND created_at >= ${f.createdAfter}` : tx``}
      ${f.createdBefore ? tx`AND created_at < ${f.createdBefore}` : tx``}
      ${f.occurredAfter ? tx`AND occurred_at >= ${f.occurredAfter}` : tx``}
      ${f.occurredBefore ? tx`AND occurred_at < ${f.occurredBefore}` : tx``}
      ${f.after ? afterPosition(tx, f.order, f.after) : tx``}
    ORDER BY ${f.order === "desc" ? tx`created_at DESC, memory_id DESC` : tx`created_at, memory_id`}
    LIMIT ${f.limit}`;
}

export type AgentRow = {
  agent_id: string;
  memories: number;
  forgotten: number;
  first_activity_at: Date;
  last_activity_at: Date;
  has_graph: boolean;
};

/**
 * Agents after `afterAgent` in agent_id order; activity: a memory's store, last version or forget.
 */
export async function listAgentRows(
  tx: Tx,
  afterAgent: string | null,
  limit: number,
): Promise<AgentRow[]> {
  return tx<AgentRow[]>`
    SELECT m.agent_id,
      count(*) FILTER (
        WHERE m.valid_to IS NULL AND (m.expires_at IS NULL OR m.expires_at > now()))::int AS memories,
      count(*) FILTER (WHERE m.deleted_at IS NOT NULL)::int AS forgotten,
      min(m.created_at) AS first_activity_at,
      max(COALESCE(m.deleted_at, m.valid_from)) AS last_activity_at,
      EXISTS (
        SELECT 1 FROM memos g WHERE g.agent_id = m.agent_id AND g.retired_at IS NULL) AS has_graph
    FROM memories m
    WHERE (m.valid_to IS NULL OR m.deleted_at IS NOT NULL)
      ${afterAgent !== null ? tx`AND m.agent_id > ${afterAgent}` : tx``}
    GROUP BY m.agent_id ORDER BY m.agent_id LIMIT ${limit}`;
}
