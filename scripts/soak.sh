#!/usr/bin/env bash
# A bounded soak with faults on loopback: two stickerd replicas on one PostgreSQL of its own serve mixed traffic
# (cached and cold manifests, images, uploads, purchase webhooks, signed-in manifests) while PostgreSQL restarts
# twice and one replica gets SIGTERM and comes back; then scripts/soak/soak.py checks what is stored against what
# was answered, the 5xx answers against the outage windows, and memory at idle, at the end and at 10,000 stickers.
# Usage: scripts/soak.sh [path/to/stickerd]   Environment: SOAK_SECONDS (600), SOAK_WORKERS (6), RSS_LIMIT_MIB (400).
set -euo pipefail
cd "$(dirname "$0")/.."
stickerd=${1:-.build/release/stickerd}
[[ -x "$stickerd" ]] || { echo "no stickerd at $stickerd: build it first (make soak does)" >&2; exit 1; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -n "$bin" ]] || { echo "PostgreSQL's programs are not installed: scripts/install-deps.sh" >&2; exit 1; }
command -v psql >/dev/null || { echo "psql is not installed: apt-get install postgresql-client" >&2; exit 1; }
work=$(mktemp -d /tmp/stickerd-soak.XXXXXX)
chmod 755 "$work"
as_owner() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
sock=$work/sock
mkdir -p "$work/pg" "$sock"
touch "$work/postgres.log"
[[ $(id -u) -eq 0 ]] && chown postgres "$work/pg" "$sock" "$work/postgres.log"
as_owner "$bin/initdb" -D "$work/pg" -U stickerd -A trust -E UTF8 --no-locale --no-sync >/dev/null
pg_ctl=("$bin/pg_ctl" -D "$work/pg" -w -t 60 -l "$work/postgres.log")
as_owner "${pg_ctl[@]}" start -o "-c listen_addresses='' -c unix_socket_directories='$sock' -c max_connections=200" >/dev/null
trap 'as_owner "${pg_ctl[@]}" stop -m immediate >/dev/null 2>&1 || true; [[ -n "${SOAK_KEEP:-}" ]] || rm -rf "$work"' EXIT
"$bin/createdb" -h "$sock" -U stickerd stickerd
export SOAK_WORK=$work SOAK_SOCKET=$sock SOAK_STICKERD=$stickerd SOAK_DATABASE_URL="postgres://stickerd@localhost/stickerd?host=$sock"
export SOAK_PG_CTL="$bin/pg_ctl" SOAK_PGDATA="$work/pg" SOAK_AS_OWNER=""
if [[ $(id -u) -eq 0 ]]; then SOAK_AS_OWNER="runuser -u postgres --"; fi
python3 scripts/soak/soak.py
