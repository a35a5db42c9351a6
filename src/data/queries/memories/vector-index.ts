// The HNSW index for the configured embedding dimension. sql/0132 creates the 1536 one; any other
// EMBEDDING_DIMENSIONS gets the same expression, settings and partial index at boot, so VECTOR
// recall never falls back to an exact scan after a dimension change. Idempotent; runs as the
// migrating (owner) role. The index is over halfvec (see sql/0130) with m 12 and ef_construction 40
// (sql/0132), and leaves out the vector backlog (sql/0134); one left over from before (over
// full-precision vectors, with pgvector's default settings, or holding the backlog) is replaced.
import type { Sql } from "../../pools";

/**
 * DDL and type modifiers cannot take parameters: the dimension is written into SQL, so it must be a
 * sane integer.
 */
export function checkedDimensions(dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000)
    throw new Error(`invalid embedding dimension ${dimensions}`);
  return dimensions;
}

/** Half of pgvector's insert cost at the same search latency and ANN recall ≥ 0.95 (sql/0132). */
const GRAPH_SETTINGS = "m = 12, ef_construction = 40";
/** How pg_indexes spells them. */
const GRAPH_SETTINGS_DEF = "WITH (m='12', ef_construction='40')";

export function vectorIndexName(dimensions: number): string {
  return `memories_embedding_${checkedDimensions(dimensions)}`;
}

/**
 * `maintenanceWorkMem` (e.g. "4GB") applies to this build's transaction only: pgvector builds the
 * graph in memory while it fits and falls back to a much slower on-disk build when it does not
 * (about 3.5 KB per 1536-dimension halfvec element).
 */
export async function ensureVectorIndex(
  sql: Sql,
  dimensions: number,
  options: { maintenanceWorkMem?: string } = {},
): Promise<void> {
  const name = vectorIndexName(dimensions);
  const [existing] = await sql<
    { indexdef: string }[]
  >`SELECT indexdef FROM pg_indexes WHERE indexname = ${name}`;
  const current = (def: string) =>
    def.includes("halfvec_cosine_ops") &&
    def.includes(GRAPH_SETTINGS_DEF) &&
    def.includes("vector_indexed");
  if (existing && !current(existing.indexdef)) await sql.unsafe(`DROP INDEX ${name}`);
  const create =
    `CREATE INDEX IF NOT EXISTS ${name} ON memories ` +
    `USING hnsw ((embedding::halfvec(${dimensions})) halfvec_cosine_ops) WITH (${GRAPH_SETTINGS}) ` +
    `WHERE valid_to IS NULL AND embedding_dims = ${dimensions} AND vector_indexed`;
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
