#!/usr/bin/env bash
# The whole test suite: bring up PostgreSQL (with pgvector) and Valkey on loopback, then `bun test`.
# Extra arguments go to bun test (e.g. a path filter). Writes junit.xml for .ci/run's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $(id -u) -eq 0 ]]; then bash scripts/setup-services.sh >/dev/null; else sudo bash scripts/setup-services.sh >/dev/null; fi
exec node_modules/.bin/bun test --timeout 30000 --reporter=junit --reporter-outfile=junit.xml "$@"
