// The invariant of sql/0135: memory_lexemes holds exactly one row per lexeme of each current memory
// version's search_document (with its agent and valid_from), and nothing for closed versions.
import type { Database } from "../../../src/data/pools";
import { withTenant } from "../../../src/data/with-tenant";

export type Drift = { side: "posting without document" | "document without posting"; memory_id: string; version: number; lexeme: string };

/** Every difference between the tenant's postings and its current documents; [] when they agree. */
export function postingsDrift(db: Database, orgId: string): Promise<Drift[]> {
  return withTenant(db, orgId, (tx) => tx<Drift[]>`
    WITH postings AS (
      SELECT agent_id, lexeme, valid_from, memory_id, version FROM memory_lexemes
    ), documents AS (
      SELECT m.agent_id, l.lexeme, m.valid_from, m.memory_id, m.version
      FROM memories m, unnest(tsvector_to_array(m.search_document)) AS l(lexeme)
      WHERE m.valid_to IS NULL
    )
    SELECT 'posting without document' AS side, memory_id, version, lexeme FROM (SELECT * FROM postings EXCEPT ALL SELECT * FROM documents) AS extra
    UNION ALL
    SELECT 'document without posting', memory_id, version, lexeme FROM (SELECT * FROM documents EXCEPT ALL SELECT * FROM postings) AS missing
    ORDER BY 2, 3, 4`);
}

/** The tenant's postings of one memory (any version). */
export async function postingsOf(db: Database, orgId: string, memoryId: string): Promise<Array<{ version: number; lexeme: string }>> {
  return withTenant(db, orgId, (tx) => tx<Array<{ version: number; lexeme: string }>>`
    SELECT version, lexeme FROM memory_lexemes WHERE memory_id = ${memoryId} ORDER BY version, lexeme`);
}
