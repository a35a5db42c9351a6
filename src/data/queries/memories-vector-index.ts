// The HNSW index for the configured embedding dimension. sql/0132 creates the 1536 one; any other
// EMBEDDING_DIMENSIONS gets the same kind of expression + partial index at boot, so VECTOR recall never
// falls back to an exact scan after a dimension change. Idempotent; runs as the migrating (owner) role.
// Which expression depends on the dimension (vectorIndexKind); an index of another kind left over from
// before (full precision before sql/0130, half precision before sql/0132) no longer matches the query's
// expression and is replaced.
import type { Sql } from "../pools";

/** DDL and type modifiers cannot take parameters: the dimension is written into SQL, so it must be a sane integer. */
export function checkedDimensions(dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000) throw new Error(`invalid embedding dimension ${dimensions}`);
  return dimensions;
}

/**
 * "binary": the graph is over the vectors' sign bits (binary quantization, 192 bytes per 1536-dimension
 * element instead of 3 KB in half precision), searched by Hamming distance and re-ranked on the stored
 * vectors. An insert costs about a quarter of a half-precision one and the index a sixteenth of the
 * space (docs/benchmarks.md). Sign bits keep enough of the ranking only with many dimensions, so smaller
 * vectors keep a half-precision graph, whose elements are small at those sizes anyway.
 */
export type VectorIndexKind = "binary" | "halfvec";

export const BINARY_INDEX_MIN_DIMENSIONS = 1024;

export function vectorIndexKind(dimensions: number): VectorIndexKind {
  return checkedDimensions(dimensions) >= BINARY_INDEX_MIN_DIMENSIONS ? "binary" : "halfvec";
}

export function vectorIndexName(dimensions: number): string {
  return `memories_embedding_${checkedDimensions(dimensions)}`;
}

function indexDefinition(dimensions: number): { using: string; opclass: string } {
  return vectorIndexKind(dimensions) === "binary"
    ? { using: `(binary_quantize(embedding)::bit(${dimensions})) bit_hamming_ops`, opclass: "bit_hamming_ops" }
    : { using: `(embedding::halfvec(${dimensions})) halfvec_cosine_ops`, opclass: "halfvec_cosine_ops" };
}

/**
 * `maintenanceWorkMem` (e.g. "4GB") applies to this build's transaction only: pgvector builds the graph
 * in memory while it fits and falls back to a much slower on-disk build when it does not.
 */
export async function ensureVectorIndex(sql: Sql, dimensions: number, options: { maintenanceWorkMem?: string } = {}): Promise<void> {
  const name = vectorIndexName(dimensions);
  const { using, opclass } = indexDefinition(dimensions);
  const [existing] = await sql<{ indexdef: string }[]>`SELECT indexdef FROM pg_indexes WHERE indexname = ${name}`;
  if (existing && !existing.indexdef.includes(opclass)) await sql.unsafe(`DROP INDEX ${name}`);
  const create = `CREATE INDEX IF NOT EXISTS ${name} ON memories USING hnsw (${using}) ` +
    `WHERE valid_to IS NULL AND embedding_dims = ${dimensions}`;
  const memory = options.maintenanceWorkMem;
  if (!memory) {
    await sql.unsafe(create);
    return;
  }
  await sql.begin(async (tx) => {
    await tx`SELECT set_config('maintenance_work_mem', ${memory}, true)`;
    await tx.unsafe(create);
  });
}
