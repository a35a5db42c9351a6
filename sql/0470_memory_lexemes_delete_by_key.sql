-- A closing or deleted memory version drops its postings by their full primary key, one lexeme at a time.
--
-- Why: sql/0135's trigger deleted with `lexeme = ANY(…)`, which the planner kept as a filter, so each row's
-- delete walked every posting of the agent from (org_id, agent_id): 3–6 ms per memory at 1,000 memories,
-- growing with the agent, and a forget of 1,000 ingested memories took seconds (issue 27). With every key
-- column an equality, each delete is one index probe whatever the agent's size.
CREATE OR REPLACE FUNCTION svc_memory_lexemes_of_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  old_lexeme text;
BEGIN
  IF OLD.valid_to IS NULL THEN
    FOREACH old_lexeme IN ARRAY tsvector_to_array(OLD.search_document) LOOP
      DELETE FROM memory_lexemes
      WHERE org_id = OLD.org_id AND agent_id = OLD.agent_id AND lexeme = old_lexeme
        AND valid_from = OLD.valid_from AND memory_id = OLD.memory_id AND version = OLD.version;
    END LOOP;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.valid_to IS NULL THEN
    INSERT INTO memory_lexemes (org_id, agent_id, lexeme, valid_from, memory_id, version)
    SELECT NEW.org_id, NEW.agent_id, l.lexeme, NEW.valid_from, NEW.memory_id, NEW.version
    FROM unnest(tsvector_to_array(NEW.search_document)) AS l(lexeme);
  END IF;
  RETURN NULL;
END $$;
