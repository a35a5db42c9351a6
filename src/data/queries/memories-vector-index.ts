// The HNSW index for the configured embedding dimension. sql/0100 creates the 1536 one; any other
// EMBEDDING_DIMENSIONS gets the same expression + partial index at boot, so VECTOR recall never falls
// back to an exact scan after a dimension change. Idempotent; runs as the migrating (owner) role.
import type { Sql } from "../pools";

export async function ensureVectorIndex(sql: Sql, dimensions: number): Promise<void> {
  // DDL cannot take parameters; the dimension is an integer validated by the config schema (8..2000).
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000) throw new Error(`invalid embedding dimension ${dimensions}`);
  await sql.unsafe(
    `CREATE INDEX IF NOT EXISTS memories_embedding_${dimensions} ON memories ` +
    `USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) ` +
    `WHERE valid_to IS NULL AND embedding_dims = ${dimensions}`,
  );
}
