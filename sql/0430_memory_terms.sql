-- BM25 postings for LEXICAL (docs/recall.md, LEXICAL): one row per term of each current memory version,
-- with its term frequency and its document's length, plus per agent the document frequency of each term
-- and the count and total length of the documents (memory_term_stats; term '' holds the totals).
--
-- Why: the any-word tier over memory_lexemes (sql/0135) ranked only the agent's 5,000 newest memories,
-- without term frequencies or document lengths. These postings make real BM25 over the whole agent
-- possible from a btree (text equality is leakproof, so row-level security can use it; no GIN operator
-- is). A term's postings are read best first and capped: the key orders them by `impact`, the BM25
-- term weight of the posting at a reference length of 32 terms (a deterministic function of tf and
-- length, so the old row's key can be recomputed when it goes).
--
-- Terms: English stems of the text with camelCase humps split ("getUserName" → get, user, name; "_" and
-- "-" split anyway), the whole identifiers lowercased without underscores ("get_user_name" and
-- "getUserName" → getusername), and the stems of metadata string values. Queries tokenise with these
-- same functions. Derived tenant data: the triggers keep exactly the current versions.

-- Identifiers with a camelCase hump or an underscore, lowercased, underscores removed.
CREATE FUNCTION svc_identifier_words(content text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(string_agg(lower(replace(m[1], '_', '')), ' '), '')
    FROM regexp_matches(content, '([A-Za-z_][A-Za-z0-9_]*)', 'g') AS m
    WHERE m[1] ~ '[A-Za-z0-9]_+[A-Za-z0-9]' OR m[1] ~ '[a-z0-9][A-Z]'
  $$;

CREATE FUNCTION svc_bm25_vector(content text, metadata jsonb) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_tsvector('english'::regconfig,
           regexp_replace(regexp_replace(content, '([a-z0-9])([A-Z])', '\1 \2', 'g'), '([A-Z]+)([A-Z][a-z])', '\1 \2', 'g'))
      || to_tsvector('simple'::regconfig, svc_identifier_words(content))
      || jsonb_to_tsvector('english'::regconfig, coalesce(metadata, '{}'::jsonb), '["string"]');

-- Each term with its frequency, and the document's length (the sum of the frequencies).
CREATE FUNCTION svc_bm25_terms(content text, metadata jsonb)
  RETURNS TABLE (term text, tf integer, doc_len integer)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT v.lexeme, greatest(1, cardinality(v.positions)), (sum(greatest(1, cardinality(v.positions))) OVER ())::integer
    FROM unnest(svc_bm25_vector(content, metadata)) AS v
  $$;

CREATE FUNCTION svc_bm25_impact(tf integer, doc_len integer) RETURNS real
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * doc_len / 32.0)))::real;

CREATE TABLE memory_terms (
  org_id     text NOT NULL,
  agent_id   text NOT NULL,
  term       text NOT NULL,
  impact     real NOT NULL,
  memory_id  text NOT NULL,
  version    integer NOT NULL,
  tf         integer NOT NULL,
  doc_len    integer NOT NULL,
  PRIMARY KEY (org_id, agent_id, term, impact, memory_id, version) INCLUDE (tf, doc_len)
);
ALTER TABLE memory_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_terms FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memory_terms
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON memory_terms TO svc_app;

CREATE TABLE memory_term_stats (
  org_id     text NOT NULL,
  agent_id   text NOT NULL,
  term       text NOT NULL,
  docs       bigint NOT NULL,
  total_len  bigint NOT NULL,
  PRIMARY KEY (org_id, agent_id, term)
);
ALTER TABLE memory_term_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_term_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memory_term_stats
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_term_stats TO svc_app;

-- The statistics' change for some postings (jsonb rows of memory_terms): per term one document each,
-- and per agent ('' term) the documents and their total length; in key order.
CREATE FUNCTION svc_memory_term_counts(postings jsonb, sign integer)
  RETURNS TABLE (org_id text, agent_id text, term text, docs bigint, total_len bigint)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    WITH p AS (
      SELECT * FROM jsonb_to_recordset(coalesce(postings, '[]'::jsonb))
        AS x(org_id text, agent_id text, term text, memory_id text, version integer, doc_len integer)
    )
    SELECT org_id, agent_id, term, sign * sum(docs)::bigint, sign * sum(len)::bigint FROM (
      SELECT org_id, agent_id, term, 1 AS docs, 0 AS len FROM p
      UNION ALL
      SELECT org_id, agent_id, '', 1, max(doc_len) FROM p GROUP BY org_id, agent_id, memory_id, version
    ) AS delta
    GROUP BY org_id, agent_id, term
    ORDER BY org_id, agent_id, term
  $$;

-- Adds (sign 1) or removes (sign -1) the postings of the given current versions and moves the statistics
-- with them. Statistics rows are locked in key order, so concurrent writers never deadlock on them.
CREATE FUNCTION svc_memory_terms_apply(versions jsonb, sign integer) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF sign > 0 THEN
    WITH delta AS MATERIALIZED (
      SELECT v.org_id, v.agent_id, t.term, svc_bm25_impact(t.tf, t.doc_len) AS impact, v.memory_id, v.version, t.tf, t.doc_len
      FROM jsonb_to_recordset(versions) AS v(org_id text, agent_id text, memory_id text, version integer, content text, metadata jsonb),
           svc_bm25_terms(v.content, v.metadata) AS t
    ), posted AS (
      INSERT INTO memory_terms (org_id, agent_id, term, impact, memory_id, version, tf, doc_len)
      SELECT * FROM delta
    )
    INSERT INTO memory_term_stats AS s (org_id, agent_id, term, docs, total_len)
    SELECT * FROM svc_memory_term_counts((SELECT jsonb_agg(delta) FROM delta), 1)
    ON CONFLICT (org_id, agent_id, term)
      DO UPDATE SET docs = s.docs + excluded.docs, total_len = s.total_len + excluded.total_len;
  ELSE
    WITH delta AS MATERIALIZED (
      SELECT v.org_id, v.agent_id, t.term, svc_bm25_impact(t.tf, t.doc_len) AS impact, v.memory_id, v.version, t.tf, t.doc_len
      FROM jsonb_to_recordset(versions) AS v(org_id text, agent_id text, memory_id text, version integer, content text, metadata jsonb),
           svc_bm25_terms(v.content, v.metadata) AS t
    ), gone AS (
      DELETE FROM memory_terms p USING delta d
      WHERE p.org_id = d.org_id AND p.agent_id = d.agent_id AND p.term = d.term AND p.impact = d.impact
        AND p.memory_id = d.memory_id AND p.version = d.version
    )
    INSERT INTO memory_term_stats AS s (org_id, agent_id, term, docs, total_len)
    SELECT * FROM svc_memory_term_counts((SELECT jsonb_agg(delta) FROM delta), -1)
    ON CONFLICT (org_id, agent_id, term)
      DO UPDATE SET docs = s.docs + excluded.docs, total_len = s.total_len + excluded.total_len;
  END IF;
END $$;

-- Inserts: once per statement, so a 500-memory batch writes its postings in one pass.
CREATE FUNCTION svc_memory_terms_of_inserted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM svc_memory_terms_apply((
    SELECT jsonb_agg(jsonb_build_object('org_id', n.org_id, 'agent_id', n.agent_id, 'memory_id', n.memory_id,
      'version', n.version, 'content', n.content, 'metadata', n.metadata))
    FROM inserted n WHERE n.valid_to IS NULL), 1);
  RETURN NULL;
END $$;
CREATE TRIGGER memory_terms_on_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION svc_memory_terms_of_inserted();

-- Updates and deletes: per row, and only for a row whose postings change (the WHEN clause).
CREATE FUNCTION svc_memory_terms_of_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.valid_to IS NULL THEN
    PERFORM svc_memory_terms_apply(jsonb_build_array(jsonb_build_object('org_id', OLD.org_id, 'agent_id', OLD.agent_id,
      'memory_id', OLD.memory_id, 'version', OLD.version, 'content', OLD.content, 'metadata', OLD.metadata)), -1);
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.valid_to IS NULL THEN
    PERFORM svc_memory_terms_apply(jsonb_build_array(jsonb_build_object('org_id', NEW.org_id, 'agent_id', NEW.agent_id,
      'memory_id', NEW.memory_id, 'version', NEW.version, 'content', NEW.content, 'metadata', NEW.metadata)), 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER memory_terms_on_update AFTER UPDATE ON memories FOR EACH ROW
  WHEN (OLD.valid_to IS DISTINCT FROM NEW.valid_to OR OLD.content IS DISTINCT FROM NEW.content
        OR OLD.metadata IS DISTINCT FROM NEW.metadata OR OLD.agent_id IS DISTINCT FROM NEW.agent_id
        OR OLD.version IS DISTINCT FROM NEW.version OR OLD.memory_id IS DISTINCT FROM NEW.memory_id)
  EXECUTE FUNCTION svc_memory_terms_of_changed();
CREATE TRIGGER memory_terms_on_delete AFTER DELETE ON memories FOR EACH ROW
  WHEN (OLD.valid_to IS NULL)
  EXECUTE FUNCTION svc_memory_terms_of_changed();

GRANT EXECUTE ON FUNCTION svc_identifier_words(text), svc_bm25_vector(text, jsonb), svc_bm25_terms(text, jsonb),
  svc_bm25_impact(integer, integer) TO svc_app;

-- The postings of the memories stored so far. Row-level security is forced on the owner too, so it is
-- lifted for this copy only, inside the migration's transaction (as in sql/0135).
ALTER TABLE memories NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_terms NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_term_stats NO FORCE ROW LEVEL SECURITY;
SELECT svc_memory_terms_apply(jsonb_agg(jsonb_build_object('org_id', m.org_id, 'agent_id', m.agent_id,
  'memory_id', m.memory_id, 'version', m.version, 'content', m.content, 'metadata', m.metadata)), 1)
FROM memories m WHERE m.valid_to IS NULL GROUP BY m.org_id, m.agent_id;
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_terms FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_term_stats FORCE ROW LEVEL SECURITY;
