-- Ingest: datasets (named groups of ingested memories), the sources each ingest job read (one row per
-- distinct document, the dedupe point), which memory each chunk of a source became, and web-search
-- batches. Jobs gain the dataset and batch they belong to, and a state for direct uploads that wait for
-- their object.

-- A dataset is live until DELETE sets deleted_at; its current memories are then detached in place
-- (memories.dataset_id := NULL on the current version only, so earlier versions keep their history).
-- Names are unique among a tenant's live datasets, case-insensitively; a deleted name can be reused.
CREATE TABLE datasets (
  org_id                 text NOT NULL REFERENCES orgs (id),
  dataset_id             text NOT NULL,
  name                   text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description            text,
  metadata               jsonb NOT NULL DEFAULT '{}',
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  deleted_at             timestamptz,
  detached_memory_count  integer CHECK (detached_memory_count >= 0),
  PRIMARY KEY (org_id, dataset_id),
  CHECK ((deleted_at IS NULL) = (detached_memory_count IS NULL))
);
CREATE UNIQUE INDEX datasets_live_name ON datasets (org_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX datasets_listing ON datasets (org_id, created_at, dataset_id);
ALTER TABLE datasets ENABLE ROW LEVEL SECURITY;
ALTER TABLE datasets FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON datasets
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON datasets TO svc_app;

-- Current memories of a dataset: counts, the detach on delete, and recall's dataset filter.
CREATE INDEX memories_dataset_current ON memories (org_id, dataset_id) WHERE valid_to IS NULL AND dataset_id IS NOT NULL;

-- One row per distinct document ingested for an agent into a dataset (NULL: no dataset). The dedupe
-- index makes re-ingesting identical bytes a no-op; job_id is the job that owns (is writing) the source,
-- completed_at is set once every chunk is stored.
CREATE TABLE ingest_sources (
  org_id        text NOT NULL REFERENCES orgs (id),
  source_id     text NOT NULL,
  job_id        text NOT NULL,
  agent_id      text NOT NULL,
  dataset_id    text,
  kind          text NOT NULL CHECK (kind IN ('text', 'url', 'file', 'upload')),
  uri           text,
  filename      text,
  mime_type     text,
  loader        text NOT NULL,
  byte_size     bigint NOT NULL CHECK (byte_size >= 0),
  content_hash  bytea NOT NULL,
  chunk_count   integer CHECK (chunk_count >= 0),
  created_at    timestamptz NOT NULL DEFAULT now(),
  completed_at  timestamptz,
  PRIMARY KEY (org_id, source_id)
);
CREATE UNIQUE INDEX ingest_sources_dedupe ON ingest_sources (org_id, agent_id, coalesce(dataset_id, ''), content_hash);
CREATE INDEX ingest_sources_dataset ON ingest_sources (org_id, dataset_id) WHERE dataset_id IS NOT NULL;
CREATE INDEX ingest_sources_job ON ingest_sources (org_id, job_id);
ALTER TABLE ingest_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingest_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingest_sources
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON ingest_sources TO svc_app;

-- Chunk i of a source became this memory. Written in the same transaction as the memory, so a retried
-- job (after kill -9) resumes after the last stored chunk and never stores one twice.
CREATE TABLE ingest_chunks (
  org_id       text NOT NULL REFERENCES orgs (id),
  source_id    text NOT NULL,
  chunk_index  integer NOT NULL CHECK (chunk_index >= 0),
  memory_id    text NOT NULL,
  PRIMARY KEY (org_id, source_id, chunk_index)
);
ALTER TABLE ingest_chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingest_chunks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingest_chunks
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT ON ingest_chunks TO svc_app;

-- POST /v1/ingest/search: one discovery job asks the web-search provider, then one URL ingest job per
-- result (jobs.batch_id). `results` keeps what the provider returned (url, title) in rank order.
CREATE TABLE ingest_batches (
  org_id            text NOT NULL REFERENCES orgs (id),
  batch_id          text NOT NULL,
  agent_id          text NOT NULL,
  dataset_id        text,
  query             text NOT NULL,
  max_results       integer NOT NULL CHECK (max_results >= 1),
  provider          text NOT NULL,
  discovery_job_id  text NOT NULL,
  results           jsonb NOT NULL DEFAULT '[]',
  created_at        timestamptz NOT NULL DEFAULT now(),
  discovered_at     timestamptz,
  PRIMARY KEY (org_id, batch_id)
);
ALTER TABLE ingest_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingest_batches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingest_batches
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON ingest_batches TO svc_app;

-- IF NOT EXISTS: refine (POST /v1/refine takes a dataset_id) may add the same column.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS dataset_id text;
ALTER TABLE jobs ADD COLUMN batch_id text;
CREATE INDEX jobs_ingest_dataset ON jobs (org_id, dataset_id) WHERE dataset_id IS NOT NULL;
CREATE INDEX jobs_ingest_batch ON jobs (org_id, batch_id) WHERE batch_id IS NOT NULL;

-- awaiting_upload: a direct-upload job between POST /v1/ingest/upload-url and its finalize. The
-- watchdog leaves it alone (it only resurrects queued and running rows) and fails it once it is abandoned.
ALTER TABLE jobs DROP CONSTRAINT jobs_state_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_state_check
  CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'rejected', 'awaiting_upload'));
CREATE INDEX jobs_awaiting_upload ON jobs (org_id, created_at) WHERE state = 'awaiting_upload';
