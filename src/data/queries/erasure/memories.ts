// Subject erasure over memories (docs/erasure.md): pick the next chunk of a subject's memories,
// empty every version of them (the content hash stays as the tombstone) and drop what derives
// from them.
import type { Tx } from "../../pools";

/** A metadata key and the string value naming the subject; null erases the whole agent. */
export type Subject = { key: string; value: string } | null;

export type ErasedVersion = { memory_id: string; version: number; content_hash: Buffer };

const matches = (tx: Tx, subject: Subject) =>
  subject === null ? tx`true` : tx`metadata ->> ${subject.key} = ${subject.value}`;

/** The agent's not yet emptied memories with any version (or conversation) naming the subject. */
export async function nextErasableMemories(
  tx: Tx,
  agentId: string,
  subject: Subject,
  limit: number,
): Promise<string[]> {
  const rows = await tx<{ memory_id: string }[]>`
    SELECT DISTINCT memory_id FROM memories
    WHERE agent_id = ${agentId} AND erased_at IS NULL AND (${matches(tx, subject)} OR memory_id IN (
      -- Every turn of the subject's conversations, whatever the turn's own metadata says.
      SELECT t.memory_id FROM conversation_turns t
      JOIN conversations c USING (org_id, conversation_id)
      WHERE c.agent_id = ${agentId} AND ${
        subject === null ? tx`true` : tx`c.metadata ->> ${subject.key} = ${subject.value}`
      }))
    ORDER BY memory_id LIMIT ${limit}`;
  return rows.map((r) => r.memory_id);
}

/**
 * Empties every version of the memories (closed beforehand by forget, so no posting trigger fires):
 * content and metadata go, with the vectors; content_hash stays for the certificate.
 */
export async function emptyVersions(tx: Tx, memoryIds: string[], jobId: string): Promise<number> {
  const rows = await tx`
    UPDATE memories SET content = '', metadata = '{}', embedding = NULL, embedding_model = NULL,
      embedding_dims = NULL, erased_at = now(), erasure_job_id = ${jobId}
    WHERE memory_id = ANY(${memoryIds}::text[]) AND erased_at IS NULL AND valid_to IS NOT NULL
    RETURNING memory_id`;
  return rows.count;
}

/** The versions an erasure emptied, in certificate order. */
export async function versionsErasedBy(tx: Tx, jobId: string): Promise<ErasedVersion[]> {
  return tx<ErasedVersion[]>`
    SELECT memory_id, version, content_hash FROM memories WHERE erasure_job_id = ${jobId}
    ORDER BY memory_id, version`;
}

/** Rows holding only a trace of the memories (counters, spare vectors, marks, turns, notes). */
export async function deleteMemoryTraces(
  tx: Tx,
  memoryIds: string[],
): Promise<Record<string, number>> {
  const ids = tx`${memoryIds}::text[]`;
  const access = await tx`DELETE FROM memory_access WHERE memory_id = ANY(${ids})`;
  const next = await tx`DELETE FROM memory_embeddings_next WHERE memory_id = ANY(${ids})`;
  const marks = await tx`DELETE FROM distilled_memories WHERE memory_id = ANY(${ids})`;
  const turns = await tx`DELETE FROM conversation_turns WHERE memory_id = ANY(${ids})`;
  const notes = await tx`UPDATE feedback SET note = NULL
    WHERE target_kind = 'memory' AND target_id = ANY(${ids}) AND note IS NOT NULL`;
  const changes = await tx`UPDATE refine_changes SET detail = '{}'
    WHERE target_kind = 'memory' AND target_id = ANY(${ids}) AND detail <> '{}'`;
  return {
    memory_access: access.count,
    memory_embeddings_next: next.count,
    distilled_memories: marks.count,
    conversation_turns: turns.count,
    feedback_notes: notes.count,
    refine_changes: changes.count,
  };
}

/** Term statistics left at zero documents still name the term: an erased subject's words go. */
export async function deleteEmptyTermStats(tx: Tx, agentId: string): Promise<number> {
  const rows = await tx`DELETE FROM memory_term_stats
    WHERE agent_id = ${agentId} AND docs <= 0 AND term <> ''`;
  return rows.count;
}
