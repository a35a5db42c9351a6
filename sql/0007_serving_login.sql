-- The serving login (DATABASE_URL when DATABASE_MIGRATION_URL names the owner) owns nothing and reaches
-- tenant rows only through SET ROLE svc_app. What it needs outside a tenant transaction (the tenant
-- registry, worker pulses, the forget signing key, the drain scan, readiness, new audit partitions) is
-- granted by this function, which the owner runs for the serving login after every migrate (it names
-- tables of later migrations, so it runs last). Membership in svc_app is the DBA's grant (docs/operations.md).
CREATE OR REPLACE FUNCTION svc_grant_serving_login(login name) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', login);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE ON orgs TO %I', login);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON worker_heartbeats TO %I', login);
  EXECUTE format('GRANT SELECT, INSERT ON service_signing_keys TO %I', login);
  EXECUTE format('GRANT SELECT ON schema_migrations TO %I', login);
  EXECUTE format('GRANT SELECT ON audit_pending TO %I', login);
  -- New monthly partitions are DDL on a table the login does not own: run with the owner's rights, on a
  -- fixed search_path, doing only that.
  ALTER FUNCTION svc_ensure_audit_partition(date) SECURITY DEFINER SET search_path = public, pg_temp;
  EXECUTE format('GRANT EXECUTE ON FUNCTION svc_ensure_audit_partition(date) TO %I', login);
END
$$;
REVOKE ALL ON FUNCTION svc_grant_serving_login(name) FROM PUBLIC;
