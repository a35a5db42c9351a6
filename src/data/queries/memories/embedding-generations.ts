// Embedding generations (sql/0131): the generation serving a tenant, the next one being built in
// memory_embeddings_next, and the switch that copies it into memories in one transaction.
import type { Sql, Tx } from "../../pools";
import { APP_ROLE } from "../../with-tenant";
import { vectorLiteral } from "./memories";

export type GenerationRow = {
  serving_model: string;
  serving_dims: number;
  target_model: string | null;
  target_dims: number | null;
  target_done: number;
  target_total: number;
};

const columns = (tx: Tx) =>
  tx`serving_model, serving_dims, target_model, target_dims, target_done, target_total`;

export async function readGeneration(tx: Tx): Promise<GenerationRow | null> {
  const rows = await tx<GenerationRow[]>`SELECT ${columns(tx)} FROM embedding_generations`;
  return rows[0] ?? null;
}

/**
 * The row, locked for the rest of the transaction (the switch and target changes serialise on it).
 */
export async function lockGeneration(tx: Tx): Promise<GenerationRow | null> {
  const rows = await tx<
    GenerationRow[]
  >`SELECT ${columns(tx)} FROM embedding_generations FOR UPDATE`;
  return rows[0] ?? null;
}

/** The (model, dims) most current versions carry a vector of, or null when none has one. */
export async function dominantGeneration(tx: Tx): Promise<{ model: string; dims: number } | null> {
  const rows = await tx<{ model: string; dims: number }[]>`
    SELECT embedding_model AS model, embedding_dims AS dims FROM memories
    WHERE valid_to IS NULL AND embedding IS NOT NULL AND embedding_model IS NOT NULL AND embedding_dims IS NOT NULL
    GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2 LIMIT 1`;
  return rows[0] ?? null;
}

export async function insertGeneration(
  tx: Tx,
  orgId: string,
  model: string,
  dims: number,
): Promise<void> {
  await tx`INSERT INTO embedding_generations (org_id, serving_model, serving_dims) VALUES (${orgId}, ${model}, ${dims})
           ON CONFLICT (org_id) DO NOTHING`;
}

/**
 * Points the tenant at a (new) target generation: drops next vectors of any other target, resets
 * progress.
 */
export async function setTarget(tx: Tx, model: string, dims: number): Promise<void> {
  await tx`DELETE FROM memory_embeddings_next WHERE model IS DISTINCT FROM ${model} OR dims IS DISTINCT FROM ${dims}`;
  await tx`UPDATE embedding_generations SET target_model = ${model}, target_dims = ${dims}, target_done = 0, target_total = 0,
           target_started_at = now(), updated_at = now()`;
}

/** The configuration went back to the serving generation: nothing to build. */
export async function clearTarget(tx: Tx): Promise<void> {
  await tx`DELETE FROM memory_embeddings_next`;
  await tx`UPDATE embedding_generations SET target_model = NULL, target_dims = NULL, target_done = 0, target_total = 0,
           target_started_at = NULL, updated_at = now() WHERE target_model IS NOT NULL`;
}

/**
 * Exact progress of the target: current versions that have a next vector, of all current versions.
 */
export async function recountTarget(
  tx: Tx,
  model: string,
  dims: number,
): Promise<{ done: number; total: number }> {
  const [row] = await tx<{ done: number; total: number }[]>`
    SELECT count(n.memory_id)::int AS done, count(*)::int AS total
    FROM memories m LEFT JOIN memory_embeddings_next n
      ON n.org_id = m.org_id AND n.model = ${model} AND n.dims = ${dims} AND n.memory_id = m.memory_id AND n.version = m.version
    WHERE m.valid_to IS NULL`;
  await tx`UPDATE embedding_generations SET target_done = ${row!.done}, target_total = ${row!.total}, updated_at = now()`;
  return row!;
}

export type PendingVersion = { memory_id: string; version: number; content: string };

/** Current versions without a vector of the target generation, oldest first. */
export async function findMissingNext(
  tx: Tx,
  model: string,
  dims: number,
  limit: number,
): Promise<PendingVersion[]> {
  return tx<PendingVersion[]>`
    SELECT m.memory_id, m.version, m.content FROM memories m
    WHERE m.valid_to IS NULL AND NOT EXISTS (
      SELECT 1 FROM memory_embeddings_next n
      WHERE n.org_id = m.org_id AND n.model = ${model} AND n.dims = ${dims} AND n.memory_id = m.memory_id AND n.version = m.version)
    ORDER BY m.valid_from, m.memory_id LIMIT ${limit}`;
}

/**
 * Stores next vectors (a re-run inserts nothing twice) and advances the progress by what was new.
 */
export async function insertNext(
  tx: Tx,
  orgId: string,
  rows: PendingVersion[],
  vectors: number[][],
  model: string,
  dims: number,
): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx`
    INSERT INTO memory_embeddings_next (org_id, memory_id, version, model, dims, embedding)
    SELECT ${orgId}, v.memory_id, v.version, ${model}, ${dims}, v.embedding::vector
    FROM unnest(${rows.map((r) => r.memory_id)}::text[], ${rows.map((r) => r.version)}::int[], ${vectors.map(vectorLiteral)}::text[])
      AS v(memory_id, version, embedding)
    ON CONFLICT DO NOTHING RETURNING 1`;
  await tx`UPDATE embedding_generations SET target_done = least(target_done + ${inserted.length}, target_total), updated_at = now()`;
  return inserted.length;
}

export async function countMissingNext(tx: Tx, model: string, dims: number): Promise<number> {
  const [row] = await tx<{ n: number }[]>`
    SELECT count(*)::int AS n FROM memories m
    WHERE m.valid_to IS NULL AND NOT EXISTS (
      SELECT 1 FROM memory_embeddings_next n
      WHERE n.org_id = m.org_id AND n.model = ${model} AND n.dims = ${dims} AND n.memory_id = m.memory_id AND n.version = m.version)`;
  return row!.n;
}

/**
 * The switch: every current version takes its next vector, a current version without one (stored in
 * the last moments, with the old generation) is left without a vector for the backfill, the next
 * table is emptied and the tenant is served by the target. Returns how many vectors were copied.
 */
export async function switchToTarget(tx: Tx, model: string, dims: number): Promise<number> {
  const copied = await tx`
    UPDATE memories AS m SET embedding = n.embedding, embedding_model = ${model}, embedding_dims = ${dims}
    FROM memory_embeddings_next n
    WHERE n.org_id = m.org_id AND n.model = ${model} AND n.dims = ${dims} AND n.memory_id = m.memory_id AND n.version = m.version
      AND m.valid_to IS NULL
    RETURNING 1`;
  await tx`
    UPDATE memories SET embedding = NULL, embedding_model = NULL, embedding_dims = NULL
    WHERE valid_to IS NULL AND embedding IS NOT NULL
      AND (embedding_model IS DISTINCT FROM ${model} OR embedding_dims IS DISTINCT FROM ${dims})`;
  await tx`DELETE FROM memory_embeddings_next`;
  await tx`UPDATE embedding_generations SET serving_model = ${model}, serving_dims = ${dims}, target_model = NULL, target_dims = NULL,
           target_done = 0, target_total = 0, target_started_at = NULL, switched_at = now(), updated_at = now()`;
  return copied.length;
}

type AllGenerations = { rows: GenerationRow[]; tenants: number; graphBacklog: number };

/**
 * Every tenant's generation row (without its org id), each read under that tenant's RLS, in one
 * round trip; how many tenants exist; and how many vectors wait for the graph (sql/0134), counted
 * the same way.
 */
export async function allGenerationRows(sql: Sql): Promise<AllGenerations> {
  return sql.begin("read only", async (tx) => {
    await tx`SELECT set_config('role', ${APP_ROLE}, true)`;
    const rows = await tx<GenerationRow[]>`SELECT * FROM svc_embedding_generation_rows()`;
    const [count] = await tx<
      { n: number; backlog: number }[]
    >`SELECT count(*)::int AS n, svc_vector_backlog_total()::float8 AS backlog FROM orgs`;
    return { rows: [...rows], tenants: count!.n, graphBacklog: count!.backlog };
  }) as Promise<AllGenerations>;
}

/**
 * svc_record_embedding_generations() as the app role: rows for tenants with vectors but no row yet.
 */
export async function recordServingGenerations(sql: Sql): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`SELECT set_config('role', ${APP_ROLE}, true)`;
    const [row] = await tx<{ n: number }[]>`SELECT svc_record_embedding_generations() AS n`;
    return row!.n;
  }) as Promise<number>;
}
