-- Planner statistics the service keeps fresh itself (issue 23, item 11). ANALYZE needs the table
-- owner, which the serving login is not, and PGlite (or a server with autovacuum off) never analyzes
-- on its own: after a bulk load the planner still sees empty tables and graph recall times out.
-- svc_refresh_statistics runs ANALYZE with the owner's rights on a fixed list of tables, at most once
-- per interval per table across every process (statistics_refreshes is the shared throttle).
CREATE TABLE statistics_refreshes (
  relname      text PRIMARY KEY,
  refreshed_at timestamptz NOT NULL
);

-- Returns the tables it analyzed; a table analyzed less than min_interval_seconds ago, or being
-- analyzed by another process right now, is skipped rather than waited for.
CREATE FUNCTION svc_refresh_statistics(tables text[], min_interval_seconds integer)
RETURNS text[] LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  refreshable CONSTANT text[] := ARRAY[
    'memories', 'memory_lexemes', 'memory_terms', 'memory_code_tokens', 'conversation_turns',
    'memos', 'memo_keys', 'memo_aliases', 'memo_sources', 'edges', 'edge_sources', 'edge_lexemes'];
  t text;
  analyzed text[] := '{}';
BEGIN
  FOREACH t IN ARRAY tables LOOP
    IF NOT t = ANY (refreshable) THEN
      RAISE EXCEPTION 'svc_refresh_statistics: % is not a refreshable table', t;
    END IF;
    INSERT INTO statistics_refreshes (relname, refreshed_at) VALUES (t, '-infinity')
      ON CONFLICT (relname) DO NOTHING;
    PERFORM 1 FROM statistics_refreshes
      WHERE relname = t
        AND refreshed_at < now() - make_interval(secs => greatest(min_interval_seconds, 0))
      FOR UPDATE SKIP LOCKED;
    CONTINUE WHEN NOT FOUND;
    EXECUTE format('ANALYZE %I', t);
    UPDATE statistics_refreshes SET refreshed_at = now() WHERE relname = t;
    analyzed := analyzed || t;
  END LOOP;
  RETURN analyzed;
END
$$;
REVOKE ALL ON FUNCTION svc_refresh_statistics(text[], integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION svc_refresh_statistics(text[], integer) TO svc_app;
