#!/usr/bin/env bash
# setup-services.sh — install + start the backing services the test suite needs,
# on Debian bookworm, as root, loopback only. Idempotent: safe to run any number of times.
#
#   PostgreSQL 15 (Debian main) + pgvector 0.8.x (built from Debian trixie's source package
#                 unless vector.control + vector.so are already installed)
#   Valkey 8      (bookworm-backports; falls back to redis-server 7.0 from bookworm main)
#   Chromium      (Debian main; /usr/bin/chromium drives the browser tests in test/browser)
#   Python 3      (Debian main: python3, python3-httpx, python3-pytest, python3-pip for sdk/python's suite)
#
# Reuses whatever already answers on 127.0.0.1:$PG_PORT (pg_isready) / 127.0.0.1:$REDIS_PORT (PING).
# Creates (idempotently) test roles + database:
#   role  $SVC_DB_USER  LOGIN PASSWORD $SVC_DB_PASSWORD, CREATEDB, NOSUPERUSER, NOBYPASSRLS  (owns schema/tables)
#   role  $SVC_APP_ROLE NOLOGIN NOSUPERUSER NOBYPASSRLS, granted to $SVC_DB_USER            (SET LOCAL ROLE target)
#   role  $SVC_SERVING_USER LOGIN PASSWORD $SVC_SERVING_PASSWORD, NOSUPERUSER, NOBYPASSRLS, NOINHERIT,
#         member of $SVC_APP_ROLE only, owns nothing (DATABASE_URL of every serving process; the owner
#         $SVC_DB_USER is DATABASE_MIGRATION_URL and grants it the rest after each migrate)
#   db    $SVC_DB_NAME  owned by $SVC_DB_USER, with extension "vector" (needs superuser, done here)
#   also: "vector" is created in template1, so databases the tests CREATE later already have it.
#
# Usage:  sudo bash setup-services.sh          # install/start/provision, prints env to export
#         sudo bash setup-services.sh stop     # stop only the servers THIS script started (by PID)
# Env knobs: PG_PORT(5432) REDIS_PORT(6379) SVC_DB_NAME(svc) SVC_DB_USER(svc) SVC_DB_PASSWORD(svc)
#            SVC_SERVING_USER(svc_serving) SVC_SERVING_PASSWORD(svc_serving) SVC_APP_ROLE(svc_app) FORCE_PGVECTOR_BUILD(0) SKIP_VALKEY_BACKPORTS(0)
#            PG_ADMIN_URL (superuser URL for a reused server that is not a local Debian cluster)
set -Eeuo pipefail

PG_MAJOR=15
PG_PORT="${PG_PORT:-5432}"
REDIS_PORT="${REDIS_PORT:-6379}"
SVC_DB_NAME="${SVC_DB_NAME:-svc}"
SVC_DB_USER="${SVC_DB_USER:-svc}"
SVC_DB_PASSWORD="${SVC_DB_PASSWORD:-svc}"
SVC_APP_ROLE="${SVC_APP_ROLE:-svc_app}"
SVC_SERVING_USER="${SVC_SERVING_USER:-svc_serving}"
SVC_SERVING_PASSWORD="${SVC_SERVING_PASSWORD:-svc_serving}"
FORCE_PGVECTOR_BUILD="${FORCE_PGVECTOR_BUILD:-0}"
SKIP_VALKEY_BACKPORTS="${SKIP_VALKEY_BACKPORTS:-0}"
STATE_DIR=/var/tmp/svc-setup            # PIDs of servers this script started + apt side lists
PG_BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
PG_CONFIG_BIN="${PG_BIN}/pg_config"
export DEBIAN_FRONTEND=noninteractive

log()  { printf '[setup %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die()  { log "ERROR: $*"; exit 1; }
now()  { date +%s.%N; }
# step NAME cmd...   -> runs cmd, prints elapsed seconds
step() {
  local name="$1"; shift
  local t0; t0=$(now)
  log "▶ $name"
  "$@"
  log "✔ $name ($(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}')s)"
}

[[ $(id -u) -eq 0 ]] || die "run as root"
trap 'log "FAILED (exit $?) at line $LINENO: $BASH_COMMAND"' ERR
mkdir -p "$STATE_DIR"

# ---------------------------------------------------------------- helpers
# Installing is supported on Debian 12 only (package names, backports, the trixie pgvector source);
# elsewhere everything must already answer on the ports and this script only provisions roles/db/extension.
require_bookworm() {
  local codename; codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")
  [[ "$codename" == bookworm ]] && return 0
  die "installing needs Debian 12 (bookworm), this is '$codename': start PostgreSQL 15+ with pgvector (plus its client, pg_isready/psql) on 127.0.0.1:${PG_PORT} and Valkey/Redis on 127.0.0.1:${REDIS_PORT}, set PG_ADMIN_URL to a superuser URL, and run again"
}
APT_UPDATED=0
apt_update_once() {
  require_bookworm
  if [[ $APT_UPDATED -eq 0 ]]; then apt-get update -qq; APT_UPDATED=1; fi
}
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }
apt_install() {   # apt_install pkg... (only the missing ones)
  local missing=() p
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  apt_update_once
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# RESP PING over bash /dev/tcp, so no client binary is needed to detect a running redis/valkey
resp_ping() {
  timeout 3 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "PING\r\n" >&3 && IFS= read -r -t 2 r <&3 && [[ $r == "+PONG"* ]]' _ "$1" 2>/dev/null
}
pg_ready() { command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -t 2; }
pg_admin() {      # pg_admin [psql args...]   superuser psql
  if [[ -n "${PG_ADMIN_URL:-}" ]]; then
    PGOPTIONS="-c client_min_messages=warning" psql "$PG_ADMIN_URL" -v ON_ERROR_STOP=1 -qAt "$@"
  else
    # Debian cluster: peer auth as postgres over the unix socket of the cluster on $PG_PORT
    PGOPTIONS="-c client_min_messages=warning" runuser -u postgres -- psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qAt "$@"
  fi
}

# ---------------------------------------------------------------- PostgreSQL
pg_install() {
  apt_install "postgresql-${PG_MAJOR}" "postgresql-client-${PG_MAJOR}"
}

pg_start() {
  if pg_ready; then log "PostgreSQL already answering on 127.0.0.1:${PG_PORT} -> reusing"; return 0; fi
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "${PG_MAJOR} main"; then
    pg_createcluster "$PG_MAJOR" main --port "$PG_PORT" >/dev/null
  fi
  # port lives in postgresql.conf (pg_ctlcluster/pg_lsclusters read it from there)
  if [[ "$(pg_conftool -s "$PG_MAJOR" main show port 2>/dev/null)" != "$PG_PORT" ]]; then
    pg_conftool "$PG_MAJOR" main set port "$PG_PORT"
  fi
  local confd="/etc/postgresql/${PG_MAJOR}/main/conf.d"
  mkdir -p "$confd"
  cat > "$confd/90-svc-tests.conf" <<EOF
# written by setup-services.sh (test server settings)
listen_addresses = '127.0.0.1'
max_connections = 200
fsync = off                 # test server only: faster, not crash safe
synchronous_commit = off
full_page_writes = off
EOF
  chown -R postgres:postgres "$confd"
  # pg_ctlcluster works without systemd (containers); policy-rc.d may block the postinst start
  pg_ctlcluster "$PG_MAJOR" main start
  local pidfile="/var/lib/postgresql/${PG_MAJOR}/main/postmaster.pid"
  for _ in $(seq 1 60); do pg_ready && break; sleep 0.5; done
  pg_ready || die "PostgreSQL did not become ready; see /var/log/postgresql/postgresql-${PG_MAJOR}-main.log"
  head -1 "$pidfile" > "$STATE_DIR/postgres-${PG_PORT}.pid"
  log "PostgreSQL ${PG_MAJOR} started, postmaster PID $(cat "$STATE_DIR/postgres-${PG_PORT}.pid")"
}

pgvector_installed() {
  local sharedir libdir
  sharedir=$("$PG_CONFIG_BIN" --sharedir); libdir=$("$PG_CONFIG_BIN" --pkglibdir)
  [[ -f "$sharedir/extension/vector.control" && -f "$libdir/vector.so" ]]
}

pgvector_build() {
  if [[ "$FORCE_PGVECTOR_BUILD" != 1 ]] && pgvector_installed; then
    log "pgvector already installed ($(grep default_version "$("$PG_CONFIG_BIN" --sharedir)/extension/vector.control")) -> skip build"
    return 0
  fi
  require_bookworm
  apt_install build-essential ca-certificates "postgresql-server-dev-${PG_MAJOR}"
  # Debian trixie's *source* package, via throw-away apt config so the system's lists stay bookworm-only
  local a="$STATE_DIR/aptsrc" work="$STATE_DIR/pgvector-build"
  mkdir -p "$a/lists/partial" "$work"
  echo 'deb-src http://deb.debian.org/debian trixie main' > "$a/sources.list"
  local aopts=(-o "Dir::Etc::sourcelist=$a/sources.list" -o "Dir::Etc::sourceparts=-" -o "Dir::State::Lists=$a/lists")
  apt-get "${aopts[@]}" update -qq
  rm -rf "${work:?}"/*
  if id _apt >/dev/null 2>&1; then chown _apt "$work"; fi
  (cd "$work" && apt-get "${aopts[@]}" source --download-only pgvector >/dev/null)
  local orig; orig=$(ls "$work"/pgvector_*.orig.tar.* | head -1)
  [[ -n "$orig" ]] || die "pgvector orig tarball not downloaded"
  tar -xf "$orig" -C "$work"
  local src; src=$(find "$work" -maxdepth 1 -mindepth 1 -type d -name 'pgvector*' | head -1)
  # OPTFLAGS="" : no -march=native, so the .so is portable across x86-64 machines
  make -C "$src" -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG_BIN" OPTFLAGS="" >/dev/null
  make -C "$src" -s install PG_CONFIG="$PG_CONFIG_BIN" >/dev/null
  pgvector_installed || die "pgvector install failed"
  log "pgvector built from $(basename "$orig")"
}

pg_provision() {
  # roles (idempotent), database, extension; all as superuser
  pg_admin <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${SVC_DB_USER}') THEN
    CREATE ROLE "${SVC_DB_USER}" LOGIN PASSWORD '${SVC_DB_PASSWORD}' CREATEDB NOSUPERUSER NOBYPASSRLS;
  ELSE
    ALTER ROLE "${SVC_DB_USER}" LOGIN PASSWORD '${SVC_DB_PASSWORD}' CREATEDB NOSUPERUSER NOBYPASSRLS;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${SVC_APP_ROLE}') THEN
    CREATE ROLE "${SVC_APP_ROLE}" NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
  -- The serving login: reaches tenant rows only through SET ROLE ${SVC_APP_ROLE}; svc refuses to serve
  -- as a login that is a superuser, has BYPASSRLS, owns a table or can SET ROLE to one that does.
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${SVC_SERVING_USER}') THEN
    CREATE ROLE "${SVC_SERVING_USER}" LOGIN PASSWORD '${SVC_SERVING_PASSWORD}' NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE;
  ELSE
    ALTER ROLE "${SVC_SERVING_USER}" LOGIN PASSWORD '${SVC_SERVING_PASSWORD}' NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEDB NOCREATEROLE;
  END IF;
END
\$\$;
GRANT "${SVC_APP_ROLE}" TO "${SVC_DB_USER}";
GRANT "${SVC_APP_ROLE}" TO "${SVC_SERVING_USER}";
SELECT format('CREATE DATABASE %I OWNER %I', '${SVC_DB_NAME}', '${SVC_DB_USER}')
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '${SVC_DB_NAME}') \gexec
SQL
  pg_admin -d template1 -c 'CREATE EXTENSION IF NOT EXISTS vector'
  pg_admin -d "$SVC_DB_NAME" <<SQL
CREATE EXTENSION IF NOT EXISTS vector;
GRANT CONNECT, TEMP ON DATABASE "${SVC_DB_NAME}" TO "${SVC_APP_ROLE}";
-- Databases the tests CREATE per run keep PostgreSQL's default CONNECT for PUBLIC; this one says it.
GRANT CONNECT ON DATABASE "${SVC_DB_NAME}" TO "${SVC_SERVING_USER}";
GRANT USAGE ON SCHEMA public TO "${SVC_APP_ROLE}";
-- tables/sequences the owner creates later are usable by the RLS role (policies still apply)
ALTER DEFAULT PRIVILEGES FOR ROLE "${SVC_DB_USER}" IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "${SVC_APP_ROLE}";
ALTER DEFAULT PRIVILEGES FOR ROLE "${SVC_DB_USER}" IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO "${SVC_APP_ROLE}";
SQL
  # smoke test as the login role over TCP + password
  local v
  v=$(PGPASSWORD="$SVC_DB_PASSWORD" psql -h 127.0.0.1 -p "$PG_PORT" -U "$SVC_DB_USER" -d "$SVC_DB_NAME" -qAt \
      -c "SELECT extversion FROM pg_extension WHERE extname='vector'")
  PGPASSWORD="$SVC_SERVING_PASSWORD" psql -h 127.0.0.1 -p "$PG_PORT" -U "$SVC_SERVING_USER" -d "$SVC_DB_NAME" -qAt -c "SELECT 1" >/dev/null
  log "db ${SVC_DB_NAME} ready; vector ${v}; owner login ${SVC_DB_USER} OK; serving login ${SVC_SERVING_USER} OK"
}

# ---------------------------------------------------------------- Valkey / Redis
REDIS_SERVER_BIN=""
usable_bin() { local b; b=$(command -v "$1" 2>/dev/null) && "$b" --version >/dev/null 2>&1 && echo "$b"; }
valkey_install() {
  if resp_ping "$REDIS_PORT"; then log "something answers PING on 127.0.0.1:${REDIS_PORT} -> reusing"; return 0; fi
  local b
  if b=$(usable_bin valkey-server); then REDIS_SERVER_BIN=$b; return 0; fi
  if b=$(usable_bin redis-server);  then REDIS_SERVER_BIN=$b; return 0; fi
  if [[ "$SKIP_VALKEY_BACKPORTS" != 1 ]]; then
    require_bookworm
    local bp=/etc/apt/sources.list.d/bookworm-backports.sources
    if [[ ! -f $bp ]]; then
      cat > "$bp" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
      APT_UPDATED=0
    fi
    apt_update_once
    if apt-get install -y -qq --no-install-recommends -t bookworm-backports valkey-server >/dev/null \
       && b=$(usable_bin valkey-server); then
      REDIS_SERVER_BIN=$b; return 0
    fi
    log "valkey-server from bookworm-backports failed -> falling back to redis-server"
  fi
  apt_install redis-server
  REDIS_SERVER_BIN=$(usable_bin redis-server) || die "redis-server not usable after install"
}

valkey_start() {
  if resp_ping "$REDIS_PORT"; then log "PING ok on 127.0.0.1:${REDIS_PORT} (reused/already started)"; return 0; fi
  [[ -n "$REDIS_SERVER_BIN" ]] || die "no valkey-server/redis-server binary"
  local name; name=$(basename "$REDIS_SERVER_BIN" | sed 's/-server//')
  local dir="/var/lib/${name}-svc-test"; mkdir -p "$dir"
  # ephemeral test broker: no RDB/AOF persistence, loopback only
  "$REDIS_SERVER_BIN" --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes \
      --daemonize yes --pidfile "$STATE_DIR/redis-${REDIS_PORT}.pid" --logfile "$STATE_DIR/${name}-${REDIS_PORT}.log" \
      --dir "$dir" --save '' --appendonly no --maxmemory-policy noeviction
  for _ in $(seq 1 40); do resp_ping "$REDIS_PORT" && break; sleep 0.25; done
  resp_ping "$REDIS_PORT" || die "$name did not answer PING; see $STATE_DIR/${name}-${REDIS_PORT}.log"
  log "$name started, PID $(cat "$STATE_DIR/redis-${REDIS_PORT}.pid"): $("$REDIS_SERVER_BIN" --version | head -c 60)"
}

# ---------------------------------------------------------------- stop (only what we started)
stop_started() {
  local f pid
  for f in "$STATE_DIR"/redis-*.pid "$STATE_DIR"/postgres-*.pid; do
    [[ -f $f ]] || continue
    pid=$(head -1 "$f")
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      # postgres: SIGINT = fast shutdown (SIGTERM would wait for clients); redis/valkey: SIGTERM
      local sig=TERM; [[ $(basename "$f") == postgres-* ]] && sig=INT
      log "stopping PID $pid ($(basename "$f" .pid), SIG$sig)"; kill "-$sig" "$pid"
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    fi
    rm -f "$f"
  done
}

if [[ "${1:-}" == "stop" ]]; then stop_started; exit 0; fi

T0=$(now)
if pg_ready; then
  log "PostgreSQL already answering on 127.0.0.1:${PG_PORT} -> reusing (no install/start)"
  if [[ -x "$PG_CONFIG_BIN" ]]; then step "pgvector (build if missing)" pgvector_build; fi
else
  step "postgresql-${PG_MAJOR} packages" pg_install
  step "pgvector (build if missing)" pgvector_build
  step "postgresql start" pg_start
fi
step "postgres roles/db/extension" pg_provision
step "valkey/redis install" valkey_install
step "valkey/redis start" valkey_start
step "chromium (test/browser, playwright-core)" apt_install chromium
step "python3, httpx, pytest, pip (sdk/python, test/sdk/python*.test.ts)" apt_install python3 python3-httpx python3-pytest python3-pip
log "all done in $(awk -v a="$T0" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}')s"
cat <<EOF
# export these for the tests:
export DATABASE_URL=postgres://${SVC_SERVING_USER}:${SVC_SERVING_PASSWORD}@127.0.0.1:${PG_PORT}/${SVC_DB_NAME}
export DATABASE_MIGRATION_URL=postgres://${SVC_DB_USER}:${SVC_DB_PASSWORD}@127.0.0.1:${PG_PORT}/${SVC_DB_NAME}
export DATABASE_APP_ROLE=${SVC_APP_ROLE}
export REDIS_URL=redis://127.0.0.1:${REDIS_PORT}
EOF
