-- The knowledge graph (Forge): Memos (typed nodes), bi-temporal edges, and provenance to the memory
-- versions they came from. Plain tables under the same RLS as every tenant table; no graph extension.
-- Lookups and traversal stay on btree equality over (org_id, …): under RLS PostgreSQL only uses an
-- index for leakproof operators, so GIN, trigram and array-overlap indexes would never be used
-- (see 0110_recall_indexes.sql).

-- memo_type is an UPPER_SNAKE kind (documented enumeration in src/domain/graph/memo-types.ts and
-- docs/graph.md); (agent_id, memo_type, normalized_name) is the spec's dedupe key among live memos.
CREATE TABLE memos (
  org_id           text NOT NULL REFERENCES orgs (id),
  memo_id          text NOT NULL,
  agent_id         text NOT NULL,
  memo_type        text NOT NULL CHECK (memo_type ~ '^[A-Z][A-Z0-9_]{0,31}$'),
  name             text NOT NULL,
  normalized_name  text NOT NULL,
  aliases          text[] NOT NULL DEFAULT '{}',
  ontology_uri     text,
  description      text,
  properties       jsonb NOT NULL DEFAULT '{}',
  origin           text NOT NULL CHECK (origin IN ('extracted', 'inferred', 'summary', 'user')),
  -- SUMMARY memos only: sha256 over the sorted member ids and their updated_at (the spec's cluster cache).
  cluster_hash     bytea,
  mention_count    integer NOT NULL DEFAULT 0 CHECK (mention_count >= 0),
  embedding        vector,
  embedding_model  text,
  embedding_dims   integer,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  last_seen_at     timestamptz,
  -- Set by refine's dedupe: the surviving memo; old ids keep resolving through it.
  merged_into      text,
  retired_at       timestamptz,
  retired_reason   text CHECK (retired_reason IN ('merged', 'source_forgotten', 'pruned', 'stale_summary')),
  PRIMARY KEY (org_id, memo_id),
  CHECK ((retired_at IS NULL) = (retired_reason IS NULL)),
  CHECK (merged_into IS NULL OR retired_reason = 'merged')
);
CREATE UNIQUE INDEX memos_dedupe_key ON memos (org_id, agent_id, memo_type, normalized_name) WHERE retired_at IS NULL;
CREATE INDEX memos_name_lookup ON memos (org_id, agent_id, normalized_name) WHERE retired_at IS NULL;
CREATE INDEX memos_ontology ON memos (org_id, ontology_uri) WHERE ontology_uri IS NOT NULL AND retired_at IS NULL;
CREATE UNIQUE INDEX memos_summary_cache ON memos (org_id, agent_id, cluster_hash) WHERE memo_type = 'SUMMARY' AND retired_at IS NULL;
CREATE INDEX memos_agent_type ON memos (org_id, agent_id, memo_type) WHERE retired_at IS NULL;
ALTER TABLE memos ENABLE ROW LEVEL SECURITY;
ALTER TABLE memos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memos
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON memos TO svc_app;

-- Dedupe blocking keys as rows (refine): equality joins stay index-usable under RLS, where trigram
-- and array-overlap operators are not. key_kind: 1 sorted tokens, 2 acronym, 3+ MinHash LSH bands.
CREATE TABLE memo_keys (
  org_id    text NOT NULL REFERENCES orgs (id),
  key_kind  smallint NOT NULL,
  key       bigint NOT NULL,
  memo_id   text NOT NULL,
  PRIMARY KEY (org_id, key_kind, key, memo_id)
);
CREATE INDEX memo_keys_memo ON memo_keys (org_id, memo_id);
ALTER TABLE memo_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE memo_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memo_keys
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON memo_keys TO svc_app;

-- Edges carry two timelines. Event time: valid_at / invalid_at, when the fact held in the world.
-- System time: created_at / expired_at (+ reason), when this service believed it. A current edge has
-- expired_at IS NULL; nothing is ever deleted except through the forget cascade's provenance rows.
CREATE TABLE edges (
  org_id              text NOT NULL REFERENCES orgs (id),
  edge_id             text NOT NULL,
  agent_id            text NOT NULL,
  src_memo_id         text NOT NULL,
  dst_memo_id         text NOT NULL,
  relation            text NOT NULL CHECK (relation ~ '^[A-Z][A-Z0-9_]{0,63}$'),
  fact                text NOT NULL,
  properties          jsonb NOT NULL DEFAULT '{}',
  origin              text NOT NULL CHECK (origin IN ('extracted', 'inferred', 'user', 'structural')),
  confidence          real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  weight              real NOT NULL CHECK (weight >= 0 AND weight <= 1),
  feedback_count      integer NOT NULL DEFAULT 0,
  mention_count       integer NOT NULL DEFAULT 1 CHECK (mention_count >= 0),
  valid_at            timestamptz,
  invalid_at          timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  expired_at          timestamptz,
  expired_reason      text CHECK (expired_reason IN ('superseded', 'contradicted', 'pruned', 'source_forgotten', 'source_revised', 'merged')),
  superseded_by       text,
  last_reinforced_at  timestamptz,
  last_decayed_at     timestamptz,
  search_document     tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, fact)) STORED,
  embedding           vector,
  embedding_dims      integer,
  PRIMARY KEY (org_id, edge_id),
  CHECK (invalid_at IS NULL OR valid_at IS NULL OR invalid_at >= valid_at),
  CHECK ((expired_at IS NULL) = (expired_reason IS NULL))
);
CREATE INDEX edges_out ON edges (org_id, src_memo_id, relation) INCLUDE (dst_memo_id, weight) WHERE expired_at IS NULL;
CREATE INDEX edges_in ON edges (org_id, dst_memo_id, relation) INCLUDE (src_memo_id, weight) WHERE expired_at IS NULL;
-- Every edge of a node, expired ones included: TRACE timelines and graph/data with include_expired.
CREATE INDEX edges_src_all ON edges (org_id, src_memo_id);
CREATE INDEX edges_dst_all ON edges (org_id, dst_memo_id);
CREATE INDEX edges_agent ON edges (org_id, agent_id, created_at DESC) WHERE expired_at IS NULL;
-- Re-extraction reinforces an edge instead of duplicating it.
CREATE UNIQUE INDEX edges_identity ON edges (org_id, src_memo_id, relation, dst_memo_id, coalesce(valid_at, '-infinity'::timestamptz))
  WHERE expired_at IS NULL;
CREATE INDEX edges_prunable ON edges (org_id, weight) WHERE expired_at IS NULL AND origin <> 'user';
ALTER TABLE edges ENABLE ROW LEVEL SECURITY;
ALTER TABLE edges FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON edges
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON edges TO svc_app;

-- Provenance: which memory versions ground each edge and memo. Forget deletes these rows (in the
-- forget transaction), then expires edges and retires memos that are left without any source.
CREATE TABLE edge_sources (
  org_id          text NOT NULL REFERENCES orgs (id),
  edge_id         text NOT NULL,
  memory_id       text NOT NULL,
  memory_version  integer NOT NULL CHECK (memory_version >= 1),
  char_start      integer,
  char_end        integer,
  extractor       text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, edge_id, memory_id, memory_version)
);
CREATE INDEX edge_sources_memory ON edge_sources (org_id, memory_id);
ALTER TABLE edge_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE edge_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON edge_sources
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON edge_sources TO svc_app;

CREATE TABLE memo_sources (
  org_id          text NOT NULL REFERENCES orgs (id),
  memo_id         text NOT NULL,
  memory_id       text NOT NULL,
  memory_version  integer NOT NULL CHECK (memory_version >= 1),
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, memo_id, memory_id, memory_version)
);
CREATE INDEX memo_sources_memory ON memo_sources (org_id, memory_id);
ALTER TABLE memo_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE memo_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memo_sources
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON memo_sources TO svc_app;

-- Which memory versions were distilled by which extractor: distill is idempotent over these.
CREATE TABLE distilled_memories (
  org_id        text NOT NULL REFERENCES orgs (id),
  memory_id     text NOT NULL,
  version       integer NOT NULL CHECK (version >= 1),
  extractor     text NOT NULL,
  job_id        text NOT NULL,
  memos_found   integer NOT NULL DEFAULT 0,
  edges_found   integer NOT NULL DEFAULT 0,
  distilled_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, memory_id, version, extractor)
);
ALTER TABLE distilled_memories ENABLE ROW LEVEL SECURITY;
ALTER TABLE distilled_memories FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON distilled_memories
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON distilled_memories TO svc_app;

-- Per-tenant overrides of the built-in relation table (src/domain/graph/relations.ts): functional
-- (single-valued, so a new object supersedes the old), transitive, and the inverse relation.
CREATE TABLE relation_types (
  org_id      text NOT NULL REFERENCES orgs (id),
  relation    text NOT NULL CHECK (relation ~ '^[A-Z][A-Z0-9_]{0,63}$'),
  functional  boolean NOT NULL,
  transitive  boolean NOT NULL DEFAULT false,
  inverse     text CHECK (inverse ~ '^[A-Z][A-Z0-9_]{0,63}$'),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, relation)
);
ALTER TABLE relation_types ENABLE ROW LEVEL SECURITY;
ALTER TABLE relation_types FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON relation_types
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON relation_types TO svc_app;

-- Feedback signals (-1, 0, +1) on a memory or an edge; pending until refine's reweight pass drains them.
CREATE TABLE feedback (
  org_id          text NOT NULL REFERENCES orgs (id),
  feedback_id     text NOT NULL,
  agent_id        text,
  target_kind     text NOT NULL CHECK (target_kind IN ('memory', 'edge')),
  target_id       text NOT NULL,
  signal          smallint NOT NULL CHECK (signal IN (-1, 0, 1)),
  note            text,
  key_id          text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  applied_at      timestamptz,
  applied_job_id  text,
  PRIMARY KEY (org_id, feedback_id)
);
CREATE INDEX feedback_pending ON feedback (org_id, created_at) WHERE applied_at IS NULL;
CREATE INDEX feedback_target ON feedback (org_id, target_kind, target_id);
ALTER TABLE feedback ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON feedback
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON feedback TO svc_app;

-- What each refine run changed (or, in a dry run, would change), with the reason: explainability.
CREATE TABLE refine_changes (
  org_id       text NOT NULL REFERENCES orgs (id),
  job_id       text NOT NULL,
  seq          integer NOT NULL CHECK (seq >= 1),
  pass         text NOT NULL CHECK (pass IN ('dedupe', 'infer', 'summarize', 'reweight', 'prune')),
  action       text NOT NULL,
  target_kind  text NOT NULL CHECK (target_kind IN ('memo', 'edge', 'memory')),
  target_id    text NOT NULL,
  detail       jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, job_id, seq)
);
ALTER TABLE refine_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE refine_changes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON refine_changes
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT ON refine_changes TO svc_app;

-- Jobs: the chain ingest → distill (parent_job_id) and per-stage counters while a job runs.
ALTER TABLE jobs ADD COLUMN parent_job_id text;
ALTER TABLE jobs ADD COLUMN progress jsonb NOT NULL DEFAULT '{}';
CREATE INDEX jobs_children ON jobs (org_id, parent_job_id) WHERE parent_job_id IS NOT NULL;
