-- Extensions and the application role.
-- svc_app: the role every tenant transaction switches to; NOLOGIN, no BYPASSRLS, owns nothing.
-- Creating the extension needs a superuser the first time (scripts/setup-services.sh does it in template1).
CREATE EXTENSION IF NOT EXISTS vector;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'svc_app') THEN
    CREATE ROLE svc_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
  IF NOT pg_has_role(current_user, 'svc_app', 'MEMBER') THEN
    EXECUTE format('GRANT svc_app TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO svc_app;

-- The tenant setting, read by every RLS policy. '' (left behind on pooled connections) means no tenant.
CREATE OR REPLACE FUNCTION svc_current_org() RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT NULLIF(current_setting('app.current_org_id', true), '') $$;
