-- Drops memory_lexemes (sql/0135, 0470): BM25's postings (memory_terms, sql/0430) now hold every
-- lexeme of each current version's search_document, so LEXICAL's all-words tier and TEMPORAL read
-- them instead.
--
-- Why: memory_lexemes' per-row triggers were the biggest cost of a forget (issue 27: ~160
-- memories/s at 2,000). It stayed because the two indexes disagreed on identifiers: search_document
-- stems the whole word ("getUserName" → getusernam) while the BM25 terms split it (get, user, name,
-- getusername), so the query "getusername" found the memory through one and not the other (issue
-- 22). The BM25 vector now also holds the lexemes of the unsplit text it lacked: only words the
-- camelCase split changes, so every other term, frequency and length stays as it was.
CREATE OR REPLACE FUNCTION svc_bm25_vector(content text, metadata jsonb) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT split || ts_delete(to_tsvector('english'::regconfig, content), tsvector_to_array(split))
    FROM (SELECT to_tsvector('english'::regconfig,
                   regexp_replace(regexp_replace(content, '([a-z0-9])([A-Z])', '\1 \2', 'g'),
                                  '([A-Z]+)([A-Z][a-z])', '\1 \2', 'g'))
              || to_tsvector('simple'::regconfig, svc_identifier_words(content))
              || jsonb_to_tsvector('english'::regconfig, coalesce(metadata, '{}'::jsonb),
                                   '["string"]')
            AS split) AS base
  $$;

-- The postings and statistics again, from the new terms: a closing version's postings are found
-- by recomputing its terms, so none may predate the new function. Row-level security is forced on
-- the owner too, so it is lifted for this rebuild only, inside the migration's transaction (0135).
ALTER TABLE memories NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_terms NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_term_stats NO FORCE ROW LEVEL SECURITY;
DELETE FROM memory_terms;
DELETE FROM memory_term_stats;
INSERT INTO memory_terms (org_id, agent_id, term, impact, memory_id, version, tf, doc_len)
  SELECT m.org_id, m.agent_id, t.term, svc_bm25_impact(t.tf, t.doc_len), m.memory_id,
         m.version, t.tf, t.doc_len
  FROM memories m, svc_bm25_terms(m.content, m.metadata) AS t
  WHERE m.valid_to IS NULL;
INSERT INTO memory_term_stats (org_id, agent_id, term, docs, total_len)
  SELECT org_id, agent_id, term, count(*), 0 FROM memory_terms GROUP BY org_id, agent_id, term
  UNION ALL
  SELECT org_id, agent_id, '', count(*), sum(doc_len) FROM (
    SELECT DISTINCT org_id, agent_id, memory_id, version, doc_len FROM memory_terms
  ) AS documents
  GROUP BY org_id, agent_id;
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_terms FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_term_stats FORCE ROW LEVEL SECURITY;

DROP TRIGGER IF EXISTS memory_lexemes_on_insert ON memories;
DROP TRIGGER IF EXISTS memory_lexemes_on_update ON memories;
DROP TRIGGER IF EXISTS memory_lexemes_on_delete ON memories;
DROP FUNCTION IF EXISTS svc_memory_lexemes_of_inserted();
DROP FUNCTION IF EXISTS svc_memory_lexemes_of_changed();
DROP TABLE IF EXISTS memory_lexemes;
