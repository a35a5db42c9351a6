#!/usr/bin/env bash
# The whole test suite: bring up PostgreSQL (with pgvector) and Valkey on loopback, then `bun test`.
# Extra arguments go to bun test (e.g. a path filter). Writes junit.xml for .ci/run's summary line.
# PG_PORT / REDIS_PORT (default 5432 / 6379) move both the services and the tests' URLs.
# Files run in SVC_TEST_PARALLEL (default 3) worker processes, each file on a database of its own
# (test/harness/preload.ts), slowest first by test/fixtures/test-timings.json; SVC_TEST_PARALLEL=1
# runs them one after another in one process. Databases are dropped at the end of the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# The setup script's own step lines are the progress a bare machine needs (installs take minutes there).
echo "[test] setting up PostgreSQL + pgvector and Valkey (scripts/setup-services.sh, root)…" >&2
setup=(bash scripts/setup-services.sh)
if [[ $(id -u) -ne 0 ]]; then setup=(sudo PG_PORT="${PG_PORT:-5432}" REDIS_PORT="${REDIS_PORT:-6379}" "${setup[@]}"); fi
"${setup[@]}" | grep --line-buffered '^\[setup' >&2
if [[ -n "${PG_PORT:-}" ]]; then export TEST_ADMIN_DATABASE_URL="${TEST_ADMIN_DATABASE_URL:-postgres://svc:svc@127.0.0.1:${PG_PORT}/svc}"; fi
if [[ -n "${REDIS_PORT:-}" ]]; then export TEST_VALKEY_URL="${TEST_VALKEY_URL:-redis://127.0.0.1:${REDIS_PORT}}"; fi
parallel=(--parallel="${SVC_TEST_PARALLEL:-3}" --timings=test/fixtures/test-timings.json)
if [[ ${SVC_TEST_PARALLEL:-3} -le 1 ]]; then parallel=(); fi
# The run's databases are dropped after its last file, not one by one (test/harness/databases.ts).
SVC_TEST_DEFERRED_DROPS=$(mktemp -t svc-test-drops.XXXXXX)
export SVC_TEST_DEFERRED_DROPS
drop_deferred() {
  node_modules/.bin/bun test/harness/drop-deferred.ts "$SVC_TEST_DEFERRED_DROPS" || true
  rm -f "$SVC_TEST_DEFERRED_DROPS"
}
trap drop_deferred EXIT
echo "[test] bun test…" >&2
node_modules/.bin/bun test --timeout 30000 "${parallel[@]}" --reporter=junit \
  --reporter-outfile=junit.xml "$@"
