-- Postings leave by their memory, not by re-tokenising it: the statement triggers of sql/0500 on
-- updates and deletes of memories delete a closing version's BM25 postings and code tokens through
-- an index on (org_id, memory_id, version), and move the term statistics from the deleted rows.
--
-- Why: a forget of 1,000 ingested memories spent 1.4 s in these triggers (issue 27): each closing
-- version was tokenised again to find its postings' keys (about half the cost), its postings went
-- through jsonb twice, and each of its ~13 postings was one primary-key probe. Now the closing
-- versions are read once from the transition tables, their postings found by memory in one index
-- scan, and the statistics come from the deleted rows in one aggregate per statement: per term one
-- document each; per agent ('' term) each document once with its length (as sql/0570's rebuild).
CREATE INDEX memory_terms_by_memory ON memory_terms (org_id, memory_id, version);
CREATE INDEX memory_code_tokens_by_memory ON memory_code_tokens (org_id, memory_id, version);

-- Removes the postings of the given closing versions (org, memory, version) and their statistics.
-- The array conditions keep both deletes on the new indexes whatever the transition tables' size;
-- the row comparison then keeps only the named versions. Statistics rows are locked in key order.
CREATE FUNCTION svc_memory_postings_remove(orgs text[], ids text[], versions integer[])
  RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  tenants text[] := ARRAY(SELECT DISTINCT unnest(orgs));
BEGIN
  WITH gone AS (
    DELETE FROM memory_terms p
    WHERE p.org_id = ANY(tenants) AND p.memory_id = ANY(ids)
      AND (p.org_id, p.memory_id, p.version) IN (
        SELECT * FROM unnest(orgs, ids, versions))
    RETURNING p.org_id, p.agent_id, p.term, p.memory_id, p.version, p.doc_len
  ), delta AS (
    SELECT org_id, agent_id, term, count(*) AS docs, 0::bigint AS total_len
    FROM gone GROUP BY org_id, agent_id, term
    UNION ALL
    SELECT org_id, agent_id, '', count(*), sum(doc_len)
    FROM (SELECT DISTINCT org_id, agent_id, memory_id, version, doc_len FROM gone) AS documents
    GROUP BY org_id, agent_id
  )
  INSERT INTO memory_term_stats AS s (org_id, agent_id, term, docs, total_len)
  SELECT org_id, agent_id, term, -docs, -total_len FROM delta
  ORDER BY org_id, agent_id, term
  ON CONFLICT (org_id, agent_id, term)
    DO UPDATE SET docs = s.docs + excluded.docs, total_len = s.total_len + excluded.total_len;
  DELETE FROM memory_code_tokens p
  WHERE p.org_id = ANY(tenants) AND p.memory_id = ANY(ids)
    AND (p.org_id, p.memory_id, p.version) IN (SELECT * FROM unnest(orgs, ids, versions));
END $$;

-- Updates: old images without an identical new one lose their postings, new images without an
-- identical old one gain them (sql/0500); the gaining side is rare (a forget only closes versions).
CREATE OR REPLACE FUNCTION svc_memory_postings_of_updated() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  orgs text[];
  ids text[];
  versions integer[];
  came jsonb;
BEGIN
  SELECT array_agg(g.org_id), array_agg(g.memory_id), array_agg(g.version)
  INTO orgs, ids, versions
  FROM (
    SELECT org_id, agent_id, memory_id, version, content, metadata
    FROM old_rows WHERE valid_to IS NULL
    EXCEPT ALL
    SELECT org_id, agent_id, memory_id, version, content, metadata
    FROM new_rows WHERE valid_to IS NULL
  ) AS g;
  IF ids IS NOT NULL THEN
    PERFORM svc_memory_postings_remove(orgs, ids, versions);
  END IF;
  SELECT jsonb_agg(to_jsonb(c)) INTO came FROM (
    SELECT org_id, agent_id, memory_id, version, content, metadata
    FROM new_rows WHERE valid_to IS NULL
    EXCEPT ALL
    SELECT org_id, agent_id, memory_id, version, content, metadata
    FROM old_rows WHERE valid_to IS NULL
  ) AS c;
  IF came IS NOT NULL THEN
    PERFORM svc_memory_postings_apply(NULL, came);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION svc_memory_postings_of_deleted() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  orgs text[];
  ids text[];
  versions integer[];
BEGIN
  SELECT array_agg(org_id), array_agg(memory_id), array_agg(version) INTO orgs, ids, versions
  FROM old_rows WHERE valid_to IS NULL;
  IF ids IS NOT NULL THEN
    PERFORM svc_memory_postings_remove(orgs, ids, versions);
  END IF;
  RETURN NULL;
END $$;
