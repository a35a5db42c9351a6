// memories queries for the background tasks: expiry, importance decay, embedding backfill
// (retention caps: retention-caps.ts).
import type { Tx } from "../../pools";
import { vectorLiteral } from "./memories";
import { accessColumn } from "../audit/memory-access";

export async function findExpiredIds(tx: Tx, now: Date, limit: number): Promise<string[]> {
  const rows = await tx<{ memory_id: string }[]>`
    SELECT memory_id FROM memories WHERE valid_to IS NULL AND expires_at <= ${now} ORDER BY expires_at LIMIT ${limit}`;
  return rows.map((r) => r.memory_id);
}

export type DecayChunk = { decayed: number; lastId: string | null };

/**
 * Exponential moving average towards `floor`: importance ← floor + (importance − floor) · 0.5^(Δt /
 * halfLife), Δt = hours since the later of the last access and the last decay (or the version's
 * start). Decaying twice over two spans equals decaying once over their sum, so reruns and missed
 * runs change nothing. One keyset chunk: the `limit` current memories after `afterId` in memory_id
 * order (memories_one_current), so each statement is bounded however large the tenant; `lastId` is
 * where the next chunk starts (null: done).
 */
export async function decayImportanceChunk(
  tx: Tx,
  orgId: string,
  afterId: string,
  limit: number,
  now: Date,
  halfLifeHours: number,
  floor: number,
): Promise<DecayChunk> {
  const lastAccess = accessColumn(tx, "last_accessed_at");
  const since = tx`GREATEST(
    COALESCE(importance_decayed_at, valid_from), COALESCE(${lastAccess}, valid_from))`;
  // The update finds its rows by ctid (stable under the row lock until commit), not by a join on
  // the key, which a planner without fresh statistics ran as a nested loop over the whole tenant.
  const [row] = await tx<{ decayed: number; last_id: string | null }[]>`
    WITH chunk AS (
      SELECT ctid, memory_id FROM memories
      WHERE org_id = ${orgId} AND valid_to IS NULL AND memory_id > ${afterId}
      ORDER BY org_id, memory_id LIMIT ${limit}
      FOR UPDATE
    ), moved AS (
      UPDATE memories SET
        importance = ${floor}::real + (importance - ${floor}::real)
          * power(0.5,
            extract(epoch FROM (${now}::timestamptz - ${since})) / 3600.0 / ${halfLifeHours}),
        importance_decayed_at = ${now}
      WHERE ctid = ANY(ARRAY(SELECT ctid FROM chunk))
        AND importance > ${floor}::real AND ${since} < ${now}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM moved)::int AS decayed,
           (SELECT max(memory_id) FROM chunk) AS last_id`;
  return { decayed: row!.decayed, lastId: row!.last_id };
}

export type UnembeddedRow = { memory_id: string; version: number; content: string };

export type StaleBatch = { rows: UnembeddedRow[]; lastUnembeddedId: string };

/**
 * Up to `limit` current versions without a vector of (`model`, `dims`), each statement bounded by
 * an index led by the tenant (sql/0660), never a read or sort of the whole tenant: first those
 * without a vector, walked in memory_id order after `afterId` (`lastUnembeddedId` is where the next
 * batch starts); then, to fill the batch, vectors of another generation, found by ranges around
 * (`model`, `dims`) (they leave those ranges once re-embedded, so they need no cursor).
 */
export async function findStaleEmbeddings(
  tx: Tx,
  orgId: string,
  model: string,
  dims: number,
  afterId: string,
  limit: number,
): Promise<StaleBatch> {
  const unembedded = await tx<UnembeddedRow[]>`
    SELECT memory_id, version, content FROM memories
    WHERE org_id = ${orgId} AND valid_to IS NULL AND embedding IS NULL AND memory_id > ${afterId}
    ORDER BY org_id, memory_id LIMIT ${limit}`;
  const lastUnembeddedId = unembedded.at(-1)?.memory_id ?? afterId;
  if (unembedded.length === limit) return { rows: unembedded, lastUnembeddedId };
  // Four index ranges of memories_vector_generation (below, above, no model, no dimension), not one
  // IS DISTINCT FROM, which the planner can only filter the tenant's whole index with.
  const rest = limit - unembedded.length;
  const other = (condition: ReturnType<Tx>) => tx`
    (SELECT memory_id, version, content FROM memories
     WHERE org_id = ${orgId} AND valid_to IS NULL AND embedding IS NOT NULL AND ${condition}
     LIMIT ${rest})`;
  const otherGeneration = await tx<UnembeddedRow[]>`
    SELECT * FROM (
      ${other(tx`(embedding_model, embedding_dims) < (${model}::text, ${dims}::int)`)}
      UNION ALL ${other(tx`(embedding_model, embedding_dims) > (${model}::text, ${dims}::int)`)}
      UNION ALL ${other(tx`embedding_model IS NULL`)}
      UNION ALL ${other(tx`embedding_model = ${model} AND embedding_dims IS NULL`)}
    ) AS other LIMIT ${rest}`;
  return { rows: [...unembedded, ...otherGeneration], lastUnembeddedId };
}

/** Writes vectors in place; a version closed or re-embedded meanwhile is left alone. */
export async function setEmbeddings(
  tx: Tx,
  rows: UnembeddedRow[],
  vectors: number[][],
  model: string,
  dims: number,
): Promise<number> {
  if (rows.length === 0) return 0;
  const updated = await tx`
    UPDATE memories AS m SET embedding = v.embedding::vector, embedding_model = ${model}, embedding_dims = ${dims}
    FROM unnest(${rows.map((r) => r.memory_id)}::text[], ${rows.map((r) => r.version)}::int[], ${vectors.map(vectorLiteral)}::text[])
      AS v(memory_id, version, embedding)
    WHERE m.memory_id = v.memory_id AND m.version = v.version AND m.valid_to IS NULL
      AND (m.embedding IS NULL OR m.embedding_model IS DISTINCT FROM ${model} OR m.embedding_dims IS DISTINCT FROM ${dims})
    RETURNING 1`;
  return updated.length;
}
