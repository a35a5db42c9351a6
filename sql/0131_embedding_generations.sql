-- Embedding generations: which model and dimension serve each tenant's VECTOR recall, and the next
-- generation being built when EMBEDDING_MODEL / EMBEDDING_DIMENSIONS / the provider changed.
-- memories.embedding always holds vectors of the serving generation (embedding_model, embedding_dims
-- record it per vector). The next generation's vectors wait in memory_embeddings_next until every current
-- version of the tenant has one; one transaction then copies them into memories and flips the serving
-- generation, so recall reads the old vectors until that commit and the new ones after it.
-- A tenant without a row is served by the configured generation.
CREATE TABLE embedding_generations (
  org_id         text PRIMARY KEY REFERENCES orgs (id),
  serving_model  text NOT NULL,
  serving_dims   integer NOT NULL CHECK (serving_dims > 0),
  target_model   text,
  target_dims    integer CHECK (target_dims > 0),
  -- Progress of the target generation: current versions with a next vector / current versions to embed.
  target_done    integer NOT NULL DEFAULT 0,
  target_total   integer NOT NULL DEFAULT 0,
  target_started_at timestamptz,
  switched_at    timestamptz,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((target_model IS NULL) = (target_dims IS NULL))
);
ALTER TABLE embedding_generations ENABLE ROW LEVEL SECURITY;
ALTER TABLE embedding_generations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON embedding_generations
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON embedding_generations TO svc_app;

-- Next-generation vectors, one per memory version; the primary key makes a re-run (a redelivered or
-- resumed svc.generate_embedding) insert nothing twice.
CREATE TABLE memory_embeddings_next (
  org_id     text NOT NULL REFERENCES orgs (id),
  memory_id  text NOT NULL,
  version    integer NOT NULL,
  model      text NOT NULL,
  dims       integer NOT NULL CHECK (dims > 0),
  embedding  vector NOT NULL,
  PRIMARY KEY (org_id, model, dims, memory_id, version)
);
ALTER TABLE memory_embeddings_next ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_embeddings_next FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memory_embeddings_next
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON memory_embeddings_next TO svc_app;

-- Readiness and /metrics report progress for the whole deployment without reading tenant rows from
-- outside RLS: this visits each tenant under its own app.current_org_id (as sumOverOrgs does, in one
-- round trip) and returns each tenant's generation row without its org id. Runs as the caller (svc_app),
-- so RLS still decides what each visit sees.
CREATE OR REPLACE FUNCTION svc_embedding_generation_rows()
RETURNS TABLE (serving_model text, serving_dims integer, target_model text, target_dims integer, target_done integer, target_total integer)
LANGUAGE plpgsql AS $$
DECLARE org text;
BEGIN
  FOR org IN SELECT id FROM orgs LOOP
    PERFORM set_config('app.current_org_id', org, true);
    RETURN QUERY SELECT g.serving_model, g.serving_dims, g.target_model, g.target_dims, g.target_done, g.target_total FROM embedding_generations g;
  END LOOP;
  PERFORM set_config('app.current_org_id', '', true);
END
$$;
GRANT EXECUTE ON FUNCTION svc_embedding_generation_rows() TO svc_app;

-- At boot (svc serve), before a changed configuration serves anything: every tenant whose memories hold
-- vectors but that has no row yet gets one naming the generation most of its vectors belong to, so the
-- lookup never mistakes old vectors for the newly configured generation. A tenant with a row is skipped
-- without a scan. Same per-tenant visit as above; returns how many rows it recorded.
CREATE OR REPLACE FUNCTION svc_record_embedding_generations() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE org text; recorded integer := 0; n integer;
BEGIN
  FOR org IN SELECT id FROM orgs LOOP
    PERFORM set_config('app.current_org_id', org, true);
    INSERT INTO embedding_generations (org_id, serving_model, serving_dims)
      SELECT org, m.embedding_model, m.embedding_dims FROM memories m
      WHERE NOT EXISTS (SELECT 1 FROM embedding_generations)
        AND m.valid_to IS NULL AND m.embedding IS NOT NULL AND m.embedding_model IS NOT NULL AND m.embedding_dims IS NOT NULL
      GROUP BY m.embedding_model, m.embedding_dims ORDER BY count(*) DESC, m.embedding_model, m.embedding_dims LIMIT 1
    ON CONFLICT (org_id) DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    recorded := recorded + n;
  END LOOP;
  PERFORM set_config('app.current_org_id', '', true);
  RETURN recorded;
END
$$;
GRANT EXECUTE ON FUNCTION svc_record_embedding_generations() TO svc_app;
