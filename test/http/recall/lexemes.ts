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

export type TermsDrift = { side: string; agent_id: string; term: string; detail: string };

/**
 * The invariant of sql/0430: memory_terms holds exactly the BM25 terms of each current version (term
 * frequency and document length included), and memory_term_stats counts them: per term its documents,
 * per agent (term '') the documents holding a term and their total length. [] when all agree.
 */
export function termsDrift(db: Database, orgId: string): Promise<TermsDrift[]> {
  return withTenant(db, orgId, (tx) => tx<TermsDrift[]>`
    WITH postings AS (
      SELECT agent_id, term, memory_id, version, tf, doc_len FROM memory_terms
    ), documents AS (
      SELECT m.agent_id, t.term, m.memory_id, m.version, t.tf, t.doc_len
      FROM memories m, svc_bm25_terms(m.content, m.metadata) AS t
      WHERE m.valid_to IS NULL
    ), counted AS (
      SELECT agent_id, term, count(*)::bigint AS docs, 0::bigint AS total_len FROM documents GROUP BY 1, 2
      UNION ALL
      SELECT agent_id, '', count(*), sum(doc_len)
      FROM (SELECT DISTINCT agent_id, memory_id, version, doc_len FROM documents) AS d GROUP BY 1
    ), stats AS (
      SELECT agent_id, term, docs, total_len FROM memory_term_stats WHERE docs <> 0 OR total_len <> 0
    )
    SELECT 'posting without document' AS side, agent_id, term, memory_id AS detail
    FROM (SELECT * FROM postings EXCEPT ALL SELECT * FROM documents) AS extra
    UNION ALL
    SELECT 'document without posting', agent_id, term, memory_id
    FROM (SELECT * FROM documents EXCEPT ALL SELECT * FROM postings) AS missing
    UNION ALL
    SELECT 'statistics off', agent_id, term, docs || '/' || total_len
    FROM (SELECT * FROM stats EXCEPT ALL SELECT * FROM counted) AS off
    UNION ALL
    SELECT 'statistics missing', agent_id, term, docs || '/' || total_len
    FROM (SELECT * FROM counted EXCEPT ALL SELECT * FROM stats) AS absent
    ORDER BY 1, 2, 3, 4`);
}
