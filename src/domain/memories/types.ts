// Memory shapes shared by the store, read, update and forget paths, and the record the API returns.
import { bytesToHex } from "@noble/hashes/utils.js";
import type { MemoryRow, NewMemoryRow } from "../../data/queries/memories/memories";

/**
 * Documented in docs/memories.md. `turn` is reserved for conversation turns (stored by the
 * conversations area).
 */
export const MEMORY_TYPES = ["semantic", "episodic", "procedural", "working", "turn"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const DEFAULT_IMPORTANCE = 0.5;

/**
 * What a caller asks to store; bounds are checked by the HTTP schema and again by prepareMemories.
 */
export type MemoryInput = {
  agent_id: string;
  content: string;
  memory_type?: MemoryType;
  /** A plain JSON object; typed loosely because it arrives unchecked from the body. */
  metadata?: unknown;
  importance?: number;
  ttl_seconds?: number;
  expires_at?: string | Date;
  /** Event time (ISO 8601 date or date-time); defaults to the store time. */
  occurred_at?: string | Date;
  dataset_id?: string;
};

/** A validated, embedded (or not: provider down) memory ready for insertPreparedMemories. */
export type PreparedMemory = Omit<NewMemoryRow, "org_id" | "memory_type"> & {
  memory_type: MemoryType;
};

/** The API shape of a version: the row with its hash as hex and the vector reduced to a status. */
export type MemoryRecord = Omit<MemoryRow, "content_hash" | "has_embedding"> & {
  content_hash: string;
  embedding_status: "ready" | "pending";
};

export function toRecord(row: MemoryRow): MemoryRecord {
  return {
    memory_id: row.memory_id,
    version: row.version,
    agent_id: row.agent_id,
    content: row.content,
    content_hash: bytesToHex(row.content_hash),
    memory_type: row.memory_type,
    metadata: row.metadata,
    importance: row.importance,
    dataset_id: row.dataset_id,
    embedding_status: row.has_embedding ? "ready" : "pending",
    created_at: row.created_at,
    occurred_at: row.occurred_at,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    deleted_at: row.deleted_at,
    expires_at: row.expires_at,
    last_accessed_at: row.last_accessed_at,
    access_count: row.access_count,
  };
}
