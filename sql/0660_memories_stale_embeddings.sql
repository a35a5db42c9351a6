-- The embedding backfill finds its tenant's stale vectors through two indexes led by the tenant.
--
-- Why: svc.generate_embedding takes a tenant's current memories without a vector of its generation
-- 256 at a time. The batch was "every current memory without a vector or with another model's,
-- oldest first": no index answered it, so each batch read and sorted the whole tenant (a million
-- rows per 256 embedded, issue 23). Memories without a vector are now walked in memory_id order
-- after the last batch (memories_unembedded gains the key); vectors of another generation (rare:
-- rows older than sql/0131) are found by ranges around the serving (model, dims).
CREATE INDEX memories_unembedded_walk ON memories (org_id, memory_id)
  WHERE valid_to IS NULL AND embedding IS NULL;
DROP INDEX memories_unembedded;
CREATE INDEX memories_vector_generation ON memories (org_id, embedding_model, embedding_dims)
  WHERE valid_to IS NULL AND embedding IS NOT NULL;
