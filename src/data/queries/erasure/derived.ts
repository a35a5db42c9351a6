// Subject erasure beyond memories (docs/erasure.md): the text of graph rows the erasure retired,
// ingest records of erased chunks, and the subject's conversations and sessions.
import type { Tx } from "../../pools";
import type { Subject } from "./memories";

/** Retired memos and edges keep their ids and history shape; their words go. */
export async function emptyGraphRows(tx: Tx, memoIds: string[], edgeIds: string[]): Promise<void> {
  if (memoIds.length > 0) {
    await tx`UPDATE memos SET name = memo_id, normalized_name = memo_id, aliases = '{}',
        description = NULL, properties = '{}', ontology_uri = NULL,
        embedding = NULL, embedding_model = NULL, embedding_dims = NULL
      WHERE memo_id = ANY(${memoIds}::text[]) AND retired_at IS NOT NULL`;
    await tx`DELETE FROM memo_aliases WHERE memo_id = ANY(${memoIds}::text[])`;
    await tx`DELETE FROM memo_keys WHERE memo_id = ANY(${memoIds}::text[])`;
  }
  if (edgeIds.length > 0) {
    await tx`UPDATE edges SET fact = '', properties = '{}', embedding = NULL, embedding_dims = NULL
      WHERE edge_id = ANY(${edgeIds}::text[]) AND expired_at IS NOT NULL`;
  }
  const targets = [...memoIds, ...edgeIds];
  if (targets.length > 0) {
    await tx`UPDATE refine_changes SET detail = '{}'
      WHERE target_kind IN ('memo', 'edge') AND target_id = ANY(${targets}::text[])
        AND detail <> '{}'`;
    await tx`UPDATE feedback SET note = NULL
      WHERE target_kind = 'edge' AND target_id = ANY(${edgeIds}::text[]) AND note IS NOT NULL`;
  }
}

/**
 * Ingest chunks of erased memories go; a source left without chunks loses its name and address,
 * and its job row the submitted text, URL or query.
 */
export async function emptyIngestRecords(
  tx: Tx,
  memoryIds: string[],
): Promise<Record<string, number>> {
  const chunks = await tx<{ source_id: string }[]>`
    DELETE FROM ingest_chunks WHERE memory_id = ANY(${memoryIds}::text[]) RETURNING source_id`;
  const sourceIds = [...new Set(chunks.map((c) => c.source_id))];
  if (sourceIds.length === 0) return { ingest_chunks: 0, ingest_sources: 0, ingest_jobs: 0 };
  const sources = await tx<{ job_id: string }[]>`
    UPDATE ingest_sources s SET uri = NULL, filename = NULL
    WHERE s.source_id = ANY(${sourceIds}::text[])
      AND NOT EXISTS (SELECT 1 FROM ingest_chunks c
        WHERE c.org_id = s.org_id AND c.source_id = s.source_id)
    RETURNING s.job_id`;
  const jobs = await emptyIngestJobs(
    tx,
    sources.map((s) => s.job_id),
  );
  return { ingest_chunks: chunks.length, ingest_sources: sources.length, ingest_jobs: jobs };
}

/** The job rows' copies of what was submitted: text, URL, search query, file name, title. */
export async function emptyIngestJobs(tx: Tx, jobIds: string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const rows = await tx`
    UPDATE jobs SET payload = jsonb_set(payload - 'title', '{source}', (payload -> 'source')
        || jsonb_strip_nulls(jsonb_build_object(
          'text', CASE WHEN payload -> 'source' ? 'text' THEN '' END,
          'url', CASE WHEN payload -> 'source' ? 'url' THEN '' END,
          'query', CASE WHEN payload -> 'source' ? 'query' THEN '' END))
        || CASE WHEN payload -> 'source' ? 'filename'
          THEN '{"filename": null}'::jsonb ELSE '{}' END),
      result = NULL
    WHERE kind = 'ingest' AND job_id = ANY(${jobIds}::text[])
    RETURNING job_id`;
  return rows.count;
}

/** Every ingest job of the agent (a whole-agent erasure). */
export async function ingestJobsOfAgent(tx: Tx, agentId: string): Promise<string[]> {
  const rows = await tx<{ job_id: string }[]>`
    SELECT job_id FROM jobs WHERE kind = 'ingest' AND payload ->> 'agent_id' = ${agentId}`;
  return rows.map((r) => r.job_id);
}

const named = (tx: Tx, subject: Subject) =>
  subject === null ? tx`true` : tx`metadata ->> ${subject.key} = ${subject.value}`;

/** The subject's conversations (title, metadata; closed) and sessions (metadata). */
export async function emptyConversations(
  tx: Tx,
  agentId: string,
  subject: Subject,
): Promise<Record<string, number>> {
  const conversations = await tx`
    UPDATE conversations SET title = NULL, metadata = '{}',
      deleted_at = coalesce(deleted_at, now()), updated_at = now()
    WHERE agent_id = ${agentId} AND ${named(tx, subject)}
      AND (title IS NOT NULL OR metadata <> '{}')`;
  const sessions = await tx`
    UPDATE sessions SET metadata = '{}', ended_at = coalesce(ended_at, now())
    WHERE agent_id = ${agentId} AND ${named(tx, subject)} AND metadata <> '{}'`;
  const batches =
    subject === null
      ? await tx`
    UPDATE ingest_batches SET query = '', results = '[]'
    WHERE agent_id = ${agentId} AND query <> ''`
      : { count: 0 };
  return {
    conversations: conversations.count,
    sessions: sessions.count,
    ingest_batches: batches.count,
  };
}
