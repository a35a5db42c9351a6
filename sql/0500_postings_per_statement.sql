-- Derived postings kept per statement, not per row: memory_terms and memory_code_tokens (sql/0430,
-- sql/0440) on updates and deletes of memories, edge_lexemes (sql/0442) on those of edges.
--
-- Why: the per-row triggers re-tokenised each closing version and upserted the agent's term
-- statistics once per row, so a forget of 1,000 ingested memories rewrote the agent's totals row
-- 1,000 times and ran ~170 memories/s (issue 27). Statement triggers with transition tables see
-- every changed row at once: the postings go in one set-based delete or insert, the statistics in
-- one upsert per term. A row's postings change only when its posted columns differ between its old
-- and new image: old images without an identical new one lose their postings, new images without an
-- identical old one gain them (EXCEPT ALL over the posted columns), so updates touching only
-- embeddings, importance or counters cost a comparison, as the per-row WHEN clauses did.
DROP TRIGGER memory_terms_on_update ON memories;
DROP TRIGGER memory_terms_on_delete ON memories;
DROP FUNCTION svc_memory_terms_of_changed();
DROP TRIGGER memory_code_tokens_on_update ON memories;
DROP TRIGGER memory_code_tokens_on_delete ON memories;
DROP FUNCTION svc_memory_code_tokens_of_changed();
DROP TRIGGER edge_lexemes_on_update ON edges;
DROP TRIGGER edge_lexemes_on_delete ON edges;
DROP FUNCTION svc_edge_lexemes_of_changed();

-- The memory versions (jsonb rows) whose BM25 and code postings go, and those whose postings come.
CREATE FUNCTION svc_memory_postings_apply(gone jsonb, came jsonb) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF gone IS NOT NULL THEN
    PERFORM svc_memory_terms_apply(gone, -1);
    DELETE FROM memory_code_tokens p
    USING jsonb_to_recordset(gone) AS v(org_id text, agent_id text, memory_id text,
            version integer, content text, metadata jsonb),
          svc_code_postings(v.content, v.metadata) AS t(token)
    WHERE svc_marks_code(v.metadata) AND p.org_id = v.org_id AND p.agent_id = v.agent_id
      AND p.token = t.token AND p.memory_id = v.memory_id AND p.version = v.version;
  END IF;
  IF came IS NOT NULL THEN
    PERFORM svc_memory_terms_apply(came, 1);
    INSERT INTO memory_code_tokens (org_id, agent_id, token, memory_id, version)
    SELECT v.org_id, v.agent_id, t.token, v.memory_id, v.version
    FROM jsonb_to_recordset(came) AS v(org_id text, agent_id text, memory_id text,
           version integer, content text, metadata jsonb),
         svc_code_postings(v.content, v.metadata) AS t(token)
    WHERE svc_marks_code(v.metadata);
  END IF;
END $$;

CREATE FUNCTION svc_memory_postings_of_updated() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM svc_memory_postings_apply(
    (SELECT jsonb_agg(to_jsonb(g)) FROM (
      SELECT org_id, agent_id, memory_id, version, content, metadata
      FROM old_rows WHERE valid_to IS NULL
      EXCEPT ALL
      SELECT org_id, agent_id, memory_id, version, content, metadata
      FROM new_rows WHERE valid_to IS NULL
    ) AS g),
    (SELECT jsonb_agg(to_jsonb(c)) FROM (
      SELECT org_id, agent_id, memory_id, version, content, metadata
      FROM new_rows WHERE valid_to IS NULL
      EXCEPT ALL
      SELECT org_id, agent_id, memory_id, version, content, metadata
      FROM old_rows WHERE valid_to IS NULL
    ) AS c));
  RETURN NULL;
END $$;
CREATE TRIGGER memory_postings_on_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_memory_postings_of_updated();

CREATE FUNCTION svc_memory_postings_of_deleted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM svc_memory_postings_apply(
    (SELECT jsonb_agg(to_jsonb(g)) FROM (
      SELECT org_id, agent_id, memory_id, version, content, metadata
      FROM old_rows WHERE valid_to IS NULL
    ) AS g),
    NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER memory_postings_on_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_memory_postings_of_deleted();

-- Edges: a fact's postings go with its old image and come with its new one (expiry and mention
-- counts, the frequent updates, change neither).
CREATE FUNCTION svc_edge_lexemes_of_updated() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM edge_lexemes p
  USING (SELECT org_id, agent_id, edge_id, search_document FROM old_rows
         EXCEPT ALL SELECT org_id, agent_id, edge_id, search_document FROM new_rows) AS g,
        unnest(tsvector_to_array(g.search_document)) AS l(lexeme)
  WHERE p.org_id = g.org_id AND p.agent_id = g.agent_id AND p.lexeme = l.lexeme
    AND p.edge_id = g.edge_id;
  INSERT INTO edge_lexemes (org_id, agent_id, lexeme, edge_id)
  SELECT c.org_id, c.agent_id, l.lexeme, c.edge_id
  FROM (SELECT org_id, agent_id, edge_id, search_document FROM new_rows
        EXCEPT ALL SELECT org_id, agent_id, edge_id, search_document FROM old_rows) AS c,
       unnest(tsvector_to_array(c.search_document)) AS l(lexeme);
  RETURN NULL;
END $$;
CREATE TRIGGER edge_lexemes_on_update AFTER UPDATE ON edges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_edge_lexemes_of_updated();

CREATE FUNCTION svc_edge_lexemes_of_deleted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM edge_lexemes p
  USING old_rows g, unnest(tsvector_to_array(g.search_document)) AS l(lexeme)
  WHERE p.org_id = g.org_id AND p.agent_id = g.agent_id AND p.lexeme = l.lexeme
    AND p.edge_id = g.edge_id;
  RETURN NULL;
END $$;
CREATE TRIGGER edge_lexemes_on_delete AFTER DELETE ON edges
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION svc_edge_lexemes_of_deleted();
