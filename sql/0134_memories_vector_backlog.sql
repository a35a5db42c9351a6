-- A batch store writes its rows outside the HNSW graph and svc.generate_embedding puts them in afterwards
-- (docs/recall.md, "The vector backlog"). Putting a row into the graph is about 97% of what storing it costs
-- the database (docs/benchmarks.md), and pgvector inserts into the graph one row at a time: on the request
-- path that capped POST /v1/memories/batch at about 700 memories/s on two cores.
-- vector_indexed is false while a version waits; VECTOR recall searches those rows exactly (through
-- memories_vector_backlog) beside the graph, so a stored memory is found at once either way.
ALTER TABLE memories ADD COLUMN vector_indexed boolean NOT NULL DEFAULT true;

DROP INDEX IF EXISTS memories_embedding_1536;
CREATE INDEX memories_embedding_1536 ON memories
  USING hnsw ((embedding::halfvec(1536)) halfvec_cosine_ops) WITH (m = 12, ef_construction = 40)
  WHERE valid_to IS NULL AND embedding_dims = 1536 AND vector_indexed;

CREATE INDEX memories_vector_backlog ON memories (org_id, agent_id) WHERE valid_to IS NULL AND NOT vector_indexed;

-- /v1/ready and /metrics report the backlog for the whole deployment without reading tenant rows from
-- outside RLS: each tenant is counted under its own app.current_org_id, as svc_embedding_generation_rows
-- visits them (sql/0131). Runs as the caller (svc_app).
CREATE OR REPLACE FUNCTION svc_vector_backlog_total() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE org text; total bigint := 0; n bigint;
BEGIN
  FOR org IN SELECT id FROM orgs LOOP
    PERFORM set_config('app.current_org_id', org, true);
    SELECT count(*) INTO n FROM memories WHERE valid_to IS NULL AND NOT vector_indexed;
    total := total + n;
  END LOOP;
  PERFORM set_config('app.current_org_id', '', true);
  RETURN total;
END
$$;
GRANT EXECUTE ON FUNCTION svc_vector_backlog_total() TO svc_app;
