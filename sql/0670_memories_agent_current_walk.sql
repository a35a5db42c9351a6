-- An agent's current memories in a total order, newest first, so a keyset walk reads one chunk.
--
-- Why: svc.enforce_retention_caps walks an agent's current memories in (valid_from, memory_id)
-- order, 1,000 at a time. memories_agent_current ended at valid_from, and a batch store gives all
-- its memories one valid_from: each chunk read and sorted the whole group it started in (20,000
-- rows a chunk, about 30 memories capped a second at 1M, issue 23). The index gains memory_id as
-- its last key; every query that used the old one reads the same prefix.
DROP INDEX memories_agent_current;
CREATE INDEX memories_agent_current ON memories (org_id, agent_id, valid_from DESC, memory_id DESC)
  WHERE valid_to IS NULL;
