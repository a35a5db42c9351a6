-- Postings for CODE: one row per identifier token (svc_code_tokens, sql/0110) of each current memory
-- version marked as code, plus one row with the empty token per such version, which counts them.
--
-- Why: CODE tokenised every code memory of the agent with regular expressions on every recall (1.1 s at
-- 1,500 functions on a busy machine; every recall timed out at 6,267), since the array operator (&&) is
-- not leakproof and no GIN index serves it under row-level security (sql/0110). A btree on (org_id,
-- agent_id, token) is usable (text equality is leakproof): CODE now reads the postings of the query's
-- tokens only, and the document frequencies it ranks by come from the same index.
--
-- Derived tenant data, kept exactly to the current versions by the triggers below, as memory_lexemes
-- (sql/0135): a version that closes (superseded, forgotten, swept) loses its postings in that statement.
CREATE TABLE memory_code_tokens (
  org_id      text NOT NULL,
  agent_id    text NOT NULL,
  token       text NOT NULL,
  memory_id   text NOT NULL,
  version     integer NOT NULL,
  PRIMARY KEY (org_id, agent_id, token, memory_id, version)
);
ALTER TABLE memory_code_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_code_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memory_code_tokens
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON memory_code_tokens TO svc_app;

-- The tokens a version posts: its identifier tokens (at most 200 characters: a btree key has a size
-- limit, and no query token is longer) and the empty token.
CREATE FUNCTION svc_code_postings(content text, metadata jsonb) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT t FROM unnest(svc_code_tokens(content, metadata)) AS t WHERE length(t) <= 200
    UNION ALL SELECT ''
  $$;
GRANT EXECUTE ON FUNCTION svc_code_postings(text, jsonb) TO svc_app;

CREATE FUNCTION svc_memory_code_tokens_of_inserted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_code_tokens (org_id, agent_id, token, memory_id, version)
  SELECT n.org_id, n.agent_id, t.token, n.memory_id, n.version
  FROM inserted n, svc_code_postings(n.content, n.metadata) AS t(token)
  WHERE n.valid_to IS NULL AND svc_marks_code(n.metadata);
  RETURN NULL;
END $$;
CREATE TRIGGER memory_code_tokens_on_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION svc_memory_code_tokens_of_inserted();

CREATE FUNCTION svc_memory_code_tokens_of_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.valid_to IS NULL AND svc_marks_code(OLD.metadata) THEN
    DELETE FROM memory_code_tokens
    WHERE org_id = OLD.org_id AND agent_id = OLD.agent_id AND memory_id = OLD.memory_id AND version = OLD.version
      AND token IN (SELECT svc_code_postings(OLD.content, OLD.metadata));
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.valid_to IS NULL AND svc_marks_code(NEW.metadata) THEN
    INSERT INTO memory_code_tokens (org_id, agent_id, token, memory_id, version)
    SELECT NEW.org_id, NEW.agent_id, t.token, NEW.memory_id, NEW.version
    FROM svc_code_postings(NEW.content, NEW.metadata) AS t(token);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER memory_code_tokens_on_update AFTER UPDATE ON memories FOR EACH ROW
  WHEN (OLD.valid_to IS DISTINCT FROM NEW.valid_to OR OLD.content IS DISTINCT FROM NEW.content
        OR OLD.metadata IS DISTINCT FROM NEW.metadata OR OLD.agent_id IS DISTINCT FROM NEW.agent_id
        OR OLD.version IS DISTINCT FROM NEW.version OR OLD.memory_id IS DISTINCT FROM NEW.memory_id)
  EXECUTE FUNCTION svc_memory_code_tokens_of_changed();
CREATE TRIGGER memory_code_tokens_on_delete AFTER DELETE ON memories FOR EACH ROW
  WHEN (OLD.valid_to IS NULL)
  EXECUTE FUNCTION svc_memory_code_tokens_of_changed();

-- The postings of the code stored so far, with row-level security lifted for this copy only (as sql/0135).
ALTER TABLE memories NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_code_tokens NO FORCE ROW LEVEL SECURITY;
INSERT INTO memory_code_tokens (org_id, agent_id, token, memory_id, version)
  SELECT m.org_id, m.agent_id, t.token, m.memory_id, m.version
  FROM memories m, svc_code_postings(m.content, m.metadata) AS t(token)
  WHERE m.valid_to IS NULL AND svc_marks_code(m.metadata);
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_code_tokens FORCE ROW LEVEL SECURITY;
