-- Postings for LEXICAL's any-word tier (and the all-words tier's candidates when every lexeme of the query is
-- required): one row per lexeme of each current memory version's search_document.
--
-- Why: under row-level security no GIN index on memories.search_document is usable (sql/0110), so the tier
-- unnested the tsvectors of the agent's most recent memories on every recall: 10 ms at 1,000 memories, most
-- of a LEXICAL recall. A btree on (org_id, agent_id, lexeme) is usable, since text equality is leakproof: the
-- tier now reads the postings of the query's words only. valid_from is in the key so the tier can keep to the
-- agent's most recent memories with an index range, as before.
--
-- Derived tenant data: the triggers below keep exactly the current versions. A version that closes
-- (superseded, forgotten, swept) loses its postings in the same statement; so does a deleted row.
CREATE TABLE memory_lexemes (
  org_id      text NOT NULL,
  agent_id    text NOT NULL,
  lexeme      text NOT NULL,
  valid_from  timestamptz NOT NULL,
  memory_id   text NOT NULL,
  version     integer NOT NULL,
  PRIMARY KEY (org_id, agent_id, lexeme, valid_from, memory_id, version)
);
ALTER TABLE memory_lexemes ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_lexemes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memory_lexemes
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON memory_lexemes TO svc_app;

-- Inserts: once per statement, so a 500-memory batch writes its postings in one INSERT … SELECT.
CREATE FUNCTION svc_memory_lexemes_of_inserted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_lexemes (org_id, agent_id, lexeme, valid_from, memory_id, version)
  SELECT n.org_id, n.agent_id, l.lexeme, n.valid_from, n.memory_id, n.version
  FROM inserted n, unnest(tsvector_to_array(n.search_document)) AS l(lexeme)
  WHERE n.valid_to IS NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER memory_lexemes_on_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION svc_memory_lexemes_of_inserted();

-- Updates and deletes: per row, and only for a row whose postings change (the WHEN clause), so the
-- frequent updates that touch neither (embeddings, the vector backlog, importance) cost a comparison.
-- The old postings are found by their full key: the old row holds every part of it.
CREATE FUNCTION svc_memory_lexemes_of_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.valid_to IS NULL THEN
    DELETE FROM memory_lexemes
    WHERE org_id = OLD.org_id AND agent_id = OLD.agent_id AND lexeme = ANY(tsvector_to_array(OLD.search_document))
      AND valid_from = OLD.valid_from AND memory_id = OLD.memory_id AND version = OLD.version;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.valid_to IS NULL THEN
    INSERT INTO memory_lexemes (org_id, agent_id, lexeme, valid_from, memory_id, version)
    SELECT NEW.org_id, NEW.agent_id, l.lexeme, NEW.valid_from, NEW.memory_id, NEW.version
    FROM unnest(tsvector_to_array(NEW.search_document)) AS l(lexeme);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER memory_lexemes_on_update AFTER UPDATE ON memories FOR EACH ROW
  WHEN (OLD.valid_to IS DISTINCT FROM NEW.valid_to OR OLD.search_document IS DISTINCT FROM NEW.search_document
        OR OLD.agent_id IS DISTINCT FROM NEW.agent_id OR OLD.valid_from IS DISTINCT FROM NEW.valid_from
        OR OLD.version IS DISTINCT FROM NEW.version OR OLD.memory_id IS DISTINCT FROM NEW.memory_id)
  EXECUTE FUNCTION svc_memory_lexemes_of_changed();
CREATE TRIGGER memory_lexemes_on_delete AFTER DELETE ON memories FOR EACH ROW
  WHEN (OLD.valid_to IS NULL)
  EXECUTE FUNCTION svc_memory_lexemes_of_changed();

-- The postings of the memories stored so far. Row-level security is forced on the owner too, so it is
-- lifted for this copy only, inside the migration's transaction (as in sql/0133).
ALTER TABLE memories NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_lexemes NO FORCE ROW LEVEL SECURITY;
INSERT INTO memory_lexemes (org_id, agent_id, lexeme, valid_from, memory_id, version)
  SELECT m.org_id, m.agent_id, l.lexeme, m.valid_from, m.memory_id, m.version
  FROM memories m, unnest(tsvector_to_array(m.search_document)) AS l(lexeme)
  WHERE m.valid_to IS NULL;
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_lexemes FORCE ROW LEVEL SECURITY;
