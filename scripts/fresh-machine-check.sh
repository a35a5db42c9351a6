#!/usr/bin/env bash
# fresh-machine-check.sh — on demand (not part of `npm test`): build a minimal Debian bookworm in a folder with
# debootstrap, put a fresh clone of this repository in it, and run the README's two commands there from nothing:
# `npm ci && npm start` (then the README's quick start against it) and `npm ci && npm test`, which installs
# PostgreSQL 15, pgvector and Valkey inside the bootstrapped system with the project's own setup script.
#
# The chroot shares the host's network, so its services use ports that do not collide with the host's:
#   FRESH_PG_PORT (55432)  FRESH_REDIS_PORT (56379)  FRESH_HTTP_PORT (18080)
# Other knobs: FRESH_DIR (/var/tmp/svc-fresh)  FRESH_MIRROR (http://deb.debian.org/debian)
#              FRESH_TEST_ARGS (extra arguments for `npm test`, e.g. a path filter; default: the whole suite)
#              FRESH_KEEP=1 keeps the folder afterwards (default: deleted)
# The machine starts with only what the README asks for: Debian's minbase, Node 20 (copied from this host) and curl.
# Needs root (debootstrap, chroot, mounts). Output: one line per stage plus the tail of each command's output;
# run it as  sudo bash scripts/fresh-machine-check.sh 2>&1 | tee fresh-check.log
set -Eeuo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
FRESH_DIR="${FRESH_DIR:-/var/tmp/svc-fresh}"
ROOTFS="$FRESH_DIR/rootfs"
MIRROR="${FRESH_MIRROR:-http://deb.debian.org/debian}"
PG_PORT="${FRESH_PG_PORT:-55432}"
REDIS_PORT="${FRESH_REDIS_PORT:-56379}"
HTTP_PORT="${FRESH_HTTP_PORT:-18080}"
TEST_ARGS="${FRESH_TEST_ARGS:-}"

log() { printf '[fresh %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { log "ERROR: $*"; exit 1; }
[[ $(id -u) -eq 0 ]] || die "run as root (debootstrap, chroot and mounts need it)"
[[ -e "$ROOTFS" ]] && die "$ROOTFS exists: remove it first (the check always starts from nothing)"

MOUNTED=()
in_root() { chroot "$ROOTFS" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt} PG_PORT="$PG_PORT" REDIS_PORT="$REDIS_PORT" PORT="$HTTP_PORT" bash -o pipefail -c "$1"; }
cleanup() {
  local rc=$?
  if [[ -x "$ROOTFS/usr/bin/env" && -f "$ROOTFS/root/svc/scripts/setup-services.sh" ]]; then
    in_root "cd /root/svc && { [ ! -f /root/serve.pid ] || kill -TERM -- -\$(cat /root/serve.pid) 2>/dev/null; }; bash scripts/setup-services.sh stop" || true
  fi
  # the whole test output outlives the folder (the log above shows only its tail)
  if [[ -f "$ROOTFS/root/test-output.log" ]]; then cp "$ROOTFS/root/test-output.log" "$FRESH_DIR/test-output.log"; log "full test output: $FRESH_DIR/test-output.log"; fi
  local i
  for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTED[i]}" || true; done
  if grep -q " $ROOTFS/" /proc/mounts; then log "something is still mounted under $ROOTFS: not deleting it"
  elif [[ "${FRESH_KEEP:-0}" != 1 && -d "$ROOTFS" ]]; then rm -rf --one-file-system "$ROOTFS"; fi
  log "finished with exit $rc"
}
trap cleanup EXIT
mnt() { mount "$@" && MOUNTED+=("${@: -1}"); }
stage() { local name=$1 t0; shift; t0=$(date +%s); log "▶ $name"; "$@"; log "✔ $name ($(( $(date +%s) - t0 ))s)"; }

bootstrap() {
  command -v debootstrap >/dev/null || { apt-get update -qq; apt-get install -y -qq debootstrap >/dev/null; }
  mkdir -p "$FRESH_DIR"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$FRESH_DIR/debootstrap.log" 2>&1 \
    || die "debootstrap failed; see $FRESH_DIR/debootstrap.log"
}

mounts() {
  mnt -t proc proc "$ROOTFS/proc"
  mnt -t sysfs sys "$ROOTFS/sys"
  mnt --bind /dev "$ROOTFS/dev"
  mnt --bind /dev/pts "$ROOTFS/dev/pts"
  mnt -t tmpfs shm "$ROOTFS/dev/shm"
  cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
  printf '127.0.0.1 localhost\n::1 localhost\n' > "$ROOTFS/etc/hosts"
  # a container-like machine: package scripts must not start services (the host already uses the default ports)
  printf '#!/bin/sh\nexit 101\n' > "$ROOTFS/usr/sbin/policy-rc.d"; chmod +x "$ROOTFS/usr/sbin/policy-rc.d"
}

prerequisites() {
  # the README's prerequisites: Node 20 (this host's build, with its npm) and curl for the quick start
  local node; node=$(readlink -f "$(command -v node)")
  [[ "$(node --version)" == v20.* ]] || die "this host's node is $(node --version), the README asks for Node 20"
  install -m 0755 "$node" "$ROOTFS/usr/local/bin/node"
  mkdir -p "$ROOTFS/usr/local/lib/node_modules"
  cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$ROOTFS/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
  in_root "apt-get update -qq && apt-get install -y -qq --no-install-recommends curl ca-certificates >/dev/null"
  # a host whose HTTPS goes through an intercepting proxy trusts extra CAs: the machine must trust them too
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
    in_root "update-ca-certificates >/dev/null 2>&1"
    log "trusting this host's local CAs: $(cd /usr/local/share/ca-certificates && echo *.crt)"
  fi
  in_root 'echo "node $(node --version), npm $(npm --version), $(. /etc/os-release; echo $PRETTY_NAME)"'
}

clone() {
  git clone -q "$REPO" "$ROOTFS/root/svc"
  log "commit $(git -C "$ROOTFS/root/svc" log -1 --format='%h %s')"
}

# README command 1, then the README's quick start (its first ```sh block after "Quick start") against it
run_service() {
  in_root "cd /root/svc && npm ci --no-audit --no-fund 2>&1 | tail -3"
  # its own process group (sh → npm → sh → bun), so stopping it stops the server, not only npm
  in_root "cd /root/svc && (setsid sh -c 'echo \$\$ >/root/serve.pid; exec npm start' >/root/serve.log 2>&1 &)"
  local i
  for i in $(seq 1 120); do in_root "curl -fs localhost:$HTTP_PORT/v1/health >/dev/null" && break; sleep 1; done
  in_root "curl -fs localhost:$HTTP_PORT/v1/health >/dev/null" || { cat "$ROOTFS/root/serve.log"; die "npm start did not answer /v1/health in 120 s"; }
  log "npm start answered /v1/health after ~${i}s"
  grep -v '^{' "$ROOTFS/root/serve.log" | sed -e 's/svc_sk_[A-Za-z0-9]*/svc_sk_…/' | grep -v '^$' || true
  in_root "cd /root/svc && ls -l .svc-data/dev-api-key && node scripts/readme-quickstart.mjs > /root/quickstart.sh && bash -eu /root/quickstart.sh | cut -c1-300"
  in_root "g=\$(cat /root/serve.pid); kill -TERM -- -\$g; for i in \$(seq 60); do kill -0 -- -\$g 2>/dev/null || break; sleep 0.5; done; \
    ! kill -0 -- -\$g 2>/dev/null && rm -f /root/serve.pid"
  log "npm start stopped cleanly on SIGTERM"
}

# README command 2
run_tests() {
  # shellcheck disable=SC2086  # TEST_ARGS is a word list on purpose
  in_root "cd /root/svc && npm ci --no-audit --no-fund 2>&1 | tail -3 && npm test -- $TEST_ARGS 2>&1 | tee /root/test-output.log | tail -40; \
    s=\${PIPESTATUS[0]}; node scripts/junit-summary.mjs junit.xml; exit \$s"
}

T0=$(date +%s)
stage "debootstrap bookworm (minbase) into $ROOTFS" bootstrap
stage "mount /proc /sys /dev" mounts
stage "prerequisites: Node 20 + curl" prerequisites
stage "fresh clone of $(git rev-parse --abbrev-ref HEAD)" clone
stage "npm ci && npm start, then the README quick start" run_service
stage "npm ci && npm test ${TEST_ARGS}" run_tests
log "all stages passed in $(( $(date +%s) - T0 ))s"
