-- Subject erasure (docs/erasure.md): erasure job rows, tombstone marks on erased memory versions
-- (content gone, content_hash kept), and the deletes the erasure needs beyond forget's.
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check
  CHECK (kind IN ('ingest', 'distill', 'refine', 'erasure'));

-- Which erasure emptied the version: its certificate lists exactly these rows' content hashes.
ALTER TABLE memories ADD COLUMN erased_at timestamptz;
ALTER TABLE memories ADD COLUMN erasure_job_id text;
CREATE INDEX memories_erasure_job ON memories (org_id, erasure_job_id)
  WHERE erasure_job_id IS NOT NULL;

GRANT DELETE ON conversation_turns TO svc_app;
GRANT DELETE ON ingest_chunks TO svc_app;
GRANT UPDATE ON refine_changes TO svc_app;
