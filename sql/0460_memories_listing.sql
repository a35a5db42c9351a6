-- GET /v1/memories lists one row per memory (its current version, or the forgotten last version
-- when include_forgotten) newest first by (created_at, memory_id); GET /v1/agents groups the same
-- rows by agent. Every memory has exactly one row under this predicate, so counts per agent are counts of
-- memories, and the INCLUDE columns let the agents' aggregate read the index alone.
CREATE INDEX memories_listing_agent ON memories (org_id, agent_id, created_at DESC, memory_id DESC)
  INCLUDE (valid_from, valid_to, deleted_at, expires_at)
  WHERE valid_to IS NULL OR deleted_at IS NOT NULL;
-- The same order across all of a tenant's agents (agent_id omitted).
CREATE INDEX memories_listing_org ON memories (org_id, created_at DESC, memory_id DESC)
  WHERE valid_to IS NULL OR deleted_at IS NOT NULL;
-- Metadata equality filters are containment tests (metadata @> {"key": value}).
CREATE INDEX memories_listing_metadata ON memories USING gin (metadata jsonb_path_ops)
  WHERE valid_to IS NULL OR deleted_at IS NOT NULL;
