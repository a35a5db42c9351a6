#!/usr/bin/env bash
# Creates (or brings back into shape) the serving login svc serves as: LOGIN, not a superuser, NOBYPASSRLS,
# NOINHERIT, a member of svc_app only, owning nothing. Idempotent: docker-compose.yml runs it before every
# `svc migrate`, on a fresh volume and on an existing one alike. The grants it needs on the tables come
# from `svc migrate` (the owner runs svc_grant_serving_login); docs/operations.md, "Database roles".
# Connects with the libpq variables PGHOST, PGUSER (a superuser or a role with CREATEROLE), PGPASSWORD and
# PGDATABASE; SVC_SERVING_USER and SVC_SERVING_PASSWORD name the login.
set -euo pipefail
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
: "${SVC_SERVING_USER:?}" "${SVC_SERVING_PASSWORD:?}" "${PGDATABASE:?}"
psql -v ON_ERROR_STOP=1 -qAt -v login="$SVC_SERVING_USER" -v password="$SVC_SERVING_PASSWORD" -v db="$PGDATABASE" <<'SQL'
SELECT 'CREATE ROLE svc_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT'
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'svc_app') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'login')
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'login') \gexec
SELECT format('ALTER ROLE %I LOGIN PASSWORD %L NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE', :'login', :'password') \gexec
SELECT format('GRANT svc_app TO %I', :'login') \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', :'db', :'login') \gexec
SQL
echo "serving login ${SVC_SERVING_USER} ready"
