-- svc_refresh_statistics waits for a table another process is analyzing instead of skipping it
-- (issue 23, item 11). The refresh now runs only in queued jobs (svc.refresh_statistics), never
-- on a request's path, so a wait costs no client anything; and a skip lost the table when the
-- other analyzer's worker was killed (its transaction rolls back, statistics_refreshes with it).
-- After the wait the row is read again: analyzed meanwhile is skipped, rolled back is analyzed
-- here. Tables are taken in name order, so two refreshes never wait on each other in a cycle.
-- memory_lexemes is gone (sql/0570).
CREATE OR REPLACE FUNCTION svc_refresh_statistics(tables text[], min_interval_seconds integer)
RETURNS text[] LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  refreshable CONSTANT text[] := ARRAY[
    'memories', 'memory_terms', 'memory_code_tokens', 'conversation_turns',
    'memos', 'memo_keys', 'memo_aliases', 'memo_sources', 'edges', 'edge_sources', 'edge_lexemes'];
  t text;
  analyzed text[] := '{}';
BEGIN
  FOREACH t IN ARRAY ARRAY(SELECT DISTINCT unnest(tables) ORDER BY 1) LOOP
    IF NOT t = ANY (refreshable) THEN
      RAISE EXCEPTION 'svc_refresh_statistics: % is not a refreshable table', t;
    END IF;
    INSERT INTO statistics_refreshes (relname, refreshed_at) VALUES (t, '-infinity')
      ON CONFLICT (relname) DO NOTHING;
    PERFORM 1 FROM statistics_refreshes
      WHERE relname = t
        AND refreshed_at < now() - make_interval(secs => greatest(min_interval_seconds, 0))
      FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    EXECUTE format('ANALYZE %I', t);
    UPDATE statistics_refreshes SET refreshed_at = now() WHERE relname = t;
    analyzed := analyzed || t;
  END LOOP;
  RETURN analyzed;
END
$$;
