// The invariants of LEXICAL's postings: memory_terms holds exactly the BM25 terms of each current
// version (sql/0430), among them every lexeme of its search_document (sql/0570), which the
// all-words tier and TEMPORAL read.
import type { Database } from "../../../src/data/pools";
import { withTenant } from "../../../src/data/with-tenant";

export type Missing = { memory_id: string; version: number; lexeme: string };

/** The lexemes of the tenant's current documents without a posting in memory_terms; [] if none. */
export async function lexemesMissing(db: Database, orgId: string): Promise<Missing[]> {
  return withTenant(
    db,
    orgId,
    (tx) => tx<Missing[]>`
    SELECT m.memory_id, m.version, l.lexeme
    FROM memories m, unnest(tsvector_to_array(m.search_document)) AS l(lexeme)
    WHERE m.valid_to IS NULL AND NOT EXISTS (
      SELECT 1 FROM memory_terms p
      WHERE p.agent_id = m.agent_id AND p.term = l.lexeme AND p.memory_id = m.memory_id
        AND p.version = m.version)
    ORDER BY 1, 2, 3`,
  );
}

/** The tenant's postings of one memory (any version), each term as `lexeme`. */
type Posting = { version: number; lexeme: string };
export async function postingsOf(
  db: Database,
  orgId: string,
  memoryId: string,
): Promise<Posting[]> {
  return withTenant(
    db,
    orgId,
    (tx) => tx<Posting[]>`
    SELECT version, term AS lexeme FROM memory_terms WHERE memory_id = ${memoryId}
    ORDER BY version, term`,
  );
}

export type TermsDrift = { side: string; agent_id: string; term: string; detail: string };

/**
 * The invariant of sql/0430: memory_terms holds exactly the BM25 terms of each current version
 * (term frequency and document length included), and memory_term_stats counts them: per term its
 * documents, per agent (term '') the documents holding a term and their total length. [] when all
 * agree.
 */
export function termsDrift(db: Database, orgId: string): Promise<TermsDrift[]> {
  return withTenant(
    db,
    orgId,
    (tx) => tx<TermsDrift[]>`
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
    ORDER BY 1, 2, 3, 4`,
  );
}
