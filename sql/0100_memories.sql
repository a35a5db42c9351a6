-- Memories, versioned SCD-2: one row per version; the current version has valid_to IS NULL.
-- PATCH closes the current row and inserts version + 1; forget closes it and sets deleted_at.
-- embedding is dimension-less so a model or dimension change can re-embed in place; HNSW indexes are
-- per dimension (expression + partial index), the default 1536 one is created here.
CREATE TABLE memories (
  org_id            text NOT NULL REFERENCES orgs (id),
  memory_id         text NOT NULL,
  version           integer NOT NULL CHECK (version >= 1),
  agent_id          text NOT NULL,
  content           text NOT NULL,
  content_hash      bytea NOT NULL,
  memory_type       text NOT NULL,
  metadata          jsonb NOT NULL DEFAULT '{}',
  importance        real NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
  dataset_id        text,
  embedding         vector,
  embedding_model   text,
  embedding_dims    integer,
  created_at        timestamptz NOT NULL,
  valid_from        timestamptz NOT NULL DEFAULT now(),
  valid_to          timestamptz,
  deleted_at        timestamptz,
  expires_at        timestamptz,
  last_accessed_at  timestamptz,
  access_count      integer NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, memory_id, version),
  CHECK (deleted_at IS NULL OR valid_to IS NOT NULL)
);

-- At most one current version per memory, whatever the concurrency.
CREATE UNIQUE INDEX memories_one_current ON memories (org_id, memory_id) WHERE valid_to IS NULL;
CREATE INDEX memories_agent_current ON memories (org_id, agent_id, valid_from DESC) WHERE valid_to IS NULL;
CREATE INDEX memories_expiring ON memories (expires_at) WHERE valid_to IS NULL AND expires_at IS NOT NULL;
CREATE INDEX memories_unembedded ON memories (org_id) WHERE valid_to IS NULL AND embedding IS NULL;
CREATE INDEX memories_embedding_1536 ON memories
  USING hnsw ((embedding::vector(1536)) vector_cosine_ops)
  WHERE valid_to IS NULL AND embedding_dims = 1536;

ALTER TABLE memories ENABLE ROW LEVEL SECURITY;
ALTER TABLE memories FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memories
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
-- No DELETE: the API never removes a version.
GRANT SELECT, INSERT, UPDATE ON memories TO svc_app;
