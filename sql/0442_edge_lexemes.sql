-- Postings of the graph's facts for GRAPH, TRIPLET and ASK: one row per lexeme of each edge's
-- search_document (the fact's words).
--
-- Why: under row-level security no GIN index on edges.search_document is usable (sql/0110), so the
-- strategies matched the question's words against the agent's 20,000 most recent edges one by one on every
-- recall (most of GRAPH's and TRIPLET's 263–434 ms over 50k edges), and never saw older facts. A btree on
-- (org_id, agent_id, lexeme) is usable (text equality is leakproof): they now read the postings of the
-- question's words only. Which edges a recall may see (expiry, as_of) is decided on the edge rows.
--
-- Derived tenant data, kept to the edges by the triggers below: an edge deleted (a forget's cascade) loses
-- its postings in the same statement.
CREATE TABLE edge_lexemes (
  org_id    text NOT NULL,
  agent_id  text NOT NULL,
  lexeme    text NOT NULL,
  edge_id   text NOT NULL,
  PRIMARY KEY (org_id, agent_id, lexeme, edge_id)
);
ALTER TABLE edge_lexemes ENABLE ROW LEVEL SECURITY;
ALTER TABLE edge_lexemes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON edge_lexemes
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON edge_lexemes TO svc_app;

CREATE FUNCTION svc_edge_lexemes_of_inserted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO edge_lexemes (org_id, agent_id, lexeme, edge_id)
  SELECT n.org_id, n.agent_id, l.lexeme, n.edge_id
  FROM inserted n, unnest(tsvector_to_array(n.search_document)) AS l(lexeme);
  RETURN NULL;
END $$;
CREATE TRIGGER edge_lexemes_on_insert AFTER INSERT ON edges
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION svc_edge_lexemes_of_inserted();

CREATE FUNCTION svc_edge_lexemes_of_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM edge_lexemes
  WHERE org_id = OLD.org_id AND agent_id = OLD.agent_id AND lexeme = ANY(tsvector_to_array(OLD.search_document))
    AND edge_id = OLD.edge_id;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO edge_lexemes (org_id, agent_id, lexeme, edge_id)
    SELECT NEW.org_id, NEW.agent_id, l.lexeme, NEW.edge_id FROM unnest(tsvector_to_array(NEW.search_document)) AS l(lexeme);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER edge_lexemes_on_update AFTER UPDATE ON edges FOR EACH ROW
  WHEN (OLD.search_document IS DISTINCT FROM NEW.search_document OR OLD.agent_id IS DISTINCT FROM NEW.agent_id
        OR OLD.edge_id IS DISTINCT FROM NEW.edge_id)
  EXECUTE FUNCTION svc_edge_lexemes_of_changed();
CREATE TRIGGER edge_lexemes_on_delete AFTER DELETE ON edges FOR EACH ROW
  EXECUTE FUNCTION svc_edge_lexemes_of_changed();

-- The postings of the edges stored so far, with row-level security lifted for this copy only (as sql/0135).
ALTER TABLE edges NO FORCE ROW LEVEL SECURITY;
ALTER TABLE edge_lexemes NO FORCE ROW LEVEL SECURITY;
INSERT INTO edge_lexemes (org_id, agent_id, lexeme, edge_id)
  SELECT e.org_id, e.agent_id, l.lexeme, e.edge_id FROM edges e, unnest(tsvector_to_array(e.search_document)) AS l(lexeme);
ALTER TABLE edges FORCE ROW LEVEL SECURITY;
ALTER TABLE edge_lexemes FORCE ROW LEVEL SECURITY;
