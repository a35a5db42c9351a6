#!/usr/bin/env bash
# Binary size and cold start of ./svc (time from exec to the first /v1/ready 200), run from a copy in an
# empty directory with a bare environment. Embedded: first start (initdb + migrations) and a restart;
# server mode when DATABASE_URL (the serving login), DATABASE_MIGRATION_URL (the owner) and VALKEY_URL are
# exported (scripts/setup-services.sh prints them).  Usage: bun run build && bash bench/cold-start.sh
set -euo pipefail
bin="$(cd "$(dirname "$0")/.." && pwd)/svc"
[ -x "$bin" ] || { echo "build first: bun run build" >&2; exit 1; }
dir=$(mktemp -d) && cp "$bin" "$dir/svc" && cd "$dir"
port=$((20000 + RANDOM % 20000))
echo "binary: $(du -m svc | cut -f1) MB ($(stat -c %s svc) bytes)"
measure() { # label, extra env...
  local label=$1; shift
  local start; start=$(date +%s%N)
  env -i PATH=/usr/bin:/bin HOME="$dir" PORT=$port LOG_LEVEL=error "$@" ./svc serve >/dev/null 2>&1 &
  local pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$port/v1/ready"; do sleep 0.01; done
  echo "$label: $(( ($(date +%s%N) - start) / 1000000 )) ms to /v1/ready 200"
  kill -TERM $pid; wait $pid || true
}
measure "embedded, first start (initdb + migrations)"
measure "embedded, restart"
measure "embedded, restart again"
if [ -n "${DATABASE_URL:-}" ] && [ -n "${DATABASE_MIGRATION_URL:-}" ] && [ -n "${VALKEY_URL:-}" ]; then
  measure "server mode (PostgreSQL + Valkey)" DATABASE_URL="$DATABASE_URL" DATABASE_MIGRATION_URL="$DATABASE_MIGRATION_URL" VALKEY_URL="$VALKEY_URL" SVC_QUEUE_PREFIX="coldstart$$"
fi
rm -rf "$dir"
