-- Recall's access counters move out of the versioned memories row into a narrow table of their own, one row
-- per memory (not per version). The audit drain adds each chained recall's hits here (docs/recall.md): on the
-- memories row, a drain batch touching hundreds of memories cannot stay HOT (a page has room for one or two
-- new versions, not fifteen), so every counted memory got a new entry in every index, the HNSW one
-- included: 0.14 ms a memory. Here an upsert touches one small btree. Forget deletes a memory's row.
CREATE TABLE memory_access (
  org_id            text NOT NULL REFERENCES orgs (id),
  memory_id         text NOT NULL,
  access_count      integer NOT NULL CHECK (access_count >= 0),
  last_accessed_at  timestamptz NOT NULL,
  PRIMARY KEY (org_id, memory_id)
);
ALTER TABLE memory_access ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_access FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memory_access
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_access TO svc_app;

-- The counters so far, from each memory's current version. Row-level security is forced on the owner too,
-- so it is lifted for this copy only, inside the migration's transaction.
ALTER TABLE memories NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_access NO FORCE ROW LEVEL SECURITY;
INSERT INTO memory_access (org_id, memory_id, access_count, last_accessed_at)
  SELECT org_id, memory_id, access_count, last_accessed_at FROM memories
  WHERE valid_to IS NULL AND last_accessed_at IS NOT NULL;
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
ALTER TABLE memory_access FORCE ROW LEVEL SECURITY;

ALTER TABLE memories DROP COLUMN last_accessed_at, DROP COLUMN access_count;
