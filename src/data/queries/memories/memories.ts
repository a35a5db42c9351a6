// memories rows (SCD-2 versions): insert, read, per-memory locks, close-and-supersede, forget.
import type { Tx } from "../../pools";
import { accessColumn } from "../audit/memory-access";

/** Columns every version carries, whether being written or read back. */
type MemoryFields = {
  memory_id: string;
  agent_id: string;
  content: string;
  content_hash: Uint8Array;
  memory_type: string;
  metadata: Record<string, unknown>;
  importance: number;
  dataset_id: string | null;
  created_at: Date;
  /**
   * Event time: when the remembered thing happened (the store time unless the writer said
   * otherwise).
   */
  occurred_at: Date;
  expires_at: Date | null;
};

export type MemoryRow = MemoryFields & {
  version: number;
  has_embedding: boolean;
  valid_from: Date;
  valid_to: Date | null;
  deleted_at: Date | null;
  last_accessed_at: Date | null;
  access_count: number;
};

export type NewMemoryRow = MemoryFields & {
  org_id: string;
  embedding: number[] | null;
  embedding_model: string | null;
  embedding_dims: number | null;
};

/** pgvector's text input form; the column is dimension-less, so any length is accepted. */
export const vectorLiteral = (v: number[]): string => `[${v.join(",")}]`;

// Every read returns these columns; the vector itself never leaves the database through the API.
// The access counters are the memory's (sql/0133), the same on every version.
export const returning = (tx: Tx) => tx`
  memory_id, version, agent_id, content, content_hash, memory_type, metadata, importance, dataset_id,
  embedding IS NOT NULL AS has_embedding, created_at, occurred_at, valid_from, valid_to, deleted_at, expires_at,
  ${accessColumn(tx, "last_accessed_at")} AS last_accessed_at, COALESCE(${accessColumn(tx, "access_count")}, 0) AS access_count`;

/** Postgres caps a statement at 65535 parameters; 15 columns a row keeps a chunk well under it. */
const INSERT_CHUNK = 1000;

/** `graphLater`: the rows wait outside the HNSW graph (the vector backlog, sql/0134). */
export async function insertMemoryRows(
  tx: Tx,
  rows: NewMemoryRow[],
  options: { graphLater?: boolean } = {},
): Promise<MemoryRow[]> {
  const out: MemoryRow[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const values = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
      ...r,
      version: 1,
      // jsonb parameters are serialised by the driver; the cast only quiets its narrow JSON typing.
      metadata: r.metadata as never,
      embedding: r.embedding ? vectorLiteral(r.embedding) : null,
      vector_indexed: !options.graphLater,
    }));
    out.push(
      ...(await tx<MemoryRow[]>`INSERT INTO memories ${tx(values)} RETURNING ${returning(tx)}`),
    );
  }
  return out;
}

/**
 * Serialises every writer of the given memories (PATCH, forget, sweeps) for the rest of the
 * transaction. Taken before reading the current version, so the read sees whatever the previous
 * writer committed. Ids map onto LOCK_BUCKETS advisory locks per tenant, so a 1000-id forget holds
 * at most that many locks (PostgreSQL's shared lock table is small); keys are sorted so writers
 * cannot deadlock.
 */
export async function lockMemories(tx: Tx, memoryIds: string[]): Promise<void> {
  if (memoryIds.length === 0) return;
  await tx`
    SELECT pg_advisory_xact_lock(k) FROM (
      SELECT DISTINCT hashtextextended(svc_current_org() || '/' || (abs(hashtext(id)::bigint) % ${LOCK_BUCKETS}), 0) AS k
      FROM unnest(${memoryIds}::text[]) AS id
    ) AS keys ORDER BY k`;
}

const LOCK_BUCKETS = 64;

/** The latest version whatever its state (current, superseded by nothing, or forgotten). */
export async function findLatestVersion(tx: Tx, memoryId: string): Promise<MemoryRow | null> {
  const rows = await tx<MemoryRow[]>`
    SELECT ${returning(tx)} FROM memories WHERE memory_id = ${memoryId} ORDER BY version DESC LIMIT 1`;
  return rows[0] ?? null;
}

export async function listVersions(tx: Tx, memoryId: string): Promise<MemoryRow[]> {
  return tx<
    MemoryRow[]
  >`SELECT ${returning(tx)} FROM memories WHERE memory_id = ${memoryId} ORDER BY version`;
}

export type VersionChanges = {
  content: string | null;
  content_hash: Uint8Array | null;
  metadata: Record<string, unknown> | null;
  importance: number | null;
  occurred_at: Date | null;
  /** Only when the content changed: the new vector, or null when the provider was down. */
  embedding?: { vector: number[] | null; model: string | null; dims: number | null };
};

/**
 * Closes the current version and inserts version + 1 carrying the changes. The caller holds the
 * lock (lockMemories) and has checked `current` is the current version.
 */
export async function supersedeVersion(
  tx: Tx,
  memoryId: string,
  currentVersion: number,
  changes: VersionChanges,
): Promise<MemoryRow> {
  const closed =
    await tx`UPDATE memories SET valid_to = now() WHERE memory_id = ${memoryId} AND version = ${currentVersion} AND valid_to IS NULL RETURNING 1`;
  // Unreachable while every writer takes lockMemories; refusing beats resurrecting a forgotten
  // memory.
  if (closed.length !== 1)
    throw new Error(`memory ${memoryId} version ${currentVersion} is no longer current`);
  const e = changes.embedding;
  const rows = await tx<MemoryRow[]>`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, metadata, importance,
      dataset_id, embedding, embedding_model, embedding_dims, created_at, occurred_at, valid_from, expires_at)
    SELECT org_id, memory_id, version + 1, agent_id, COALESCE(${changes.content}::text, content),
      COALESCE(${changes.content_hash}::bytea, content_hash), memory_type,
      COALESCE(${changes.metadata as never}::jsonb, metadata),
      COALESCE(${changes.importance}::real, importance), dataset_id,
      ${e ? tx`${e.vector ? vectorLiteral(e.vector) : null}::vector, ${e.model}::text, ${e.dims}::int` : tx`embedding, embedding_model, embedding_dims`},
      created_at, COALESCE(${changes.occurred_at}::timestamptz, occurred_at), now(), expires_at
    FROM memories WHERE memory_id = ${memoryId} AND version = ${currentVersion}
    RETURNING ${returning(tx)}`;
  return rows[0]!;
}

export type ForgottenRow = {
  memory_id: string;
  version: number;
  agent_id: string;
  content_hash: Uint8Array;
};

/**
 * Closes the current versions (of one agent when given) and marks them deleted; others are skipped.
 */
export async function forgetCurrentVersions(
  tx: Tx,
  memoryIds: string[],
  agentId: string | null,
): Promise<ForgottenRow[]> {
  const rows = await tx<ForgottenRow[]>`
    UPDATE memories SET valid_to = now(), deleted_at = now()
    WHERE memory_id = ANY(${memoryIds}::text[]) AND valid_to IS NULL
      AND ${agentId === null ? tx`true` : tx`agent_id = ${agentId}`}
    RETURNING memory_id, version, agent_id, content_hash`;
  // Derived from recalls of the memory: it goes with it (the drain counts only memories still
  // current).
  if (rows.length > 0)
    await tx`DELETE FROM memory_access WHERE memory_id = ANY(${rows.map((r) => r.memory_id)}::text[])`;
  return rows;
}
