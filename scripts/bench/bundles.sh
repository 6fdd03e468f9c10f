#!/usr/bin/env bash
# Bundles against greedy clients (issue 35, item 3), on a live release stickerd as shipped with 10,000 stickers whose
# small @2x PNGs are distinct files (scripts/bench/catalog-10k.sql, catalog-10k-distinct-small.sql):
#  1. 100 clients, each from its own loopback address, POST a bundle of 256 different images and never read the answer:
#     stickerd's RSS growth 10 s later, and what each client was answered (200 admitted, 503 past the replica's bound).
#     Target: at most 64 MiB.
#  2. One bundle of 256 random digests: the database transactions it cost (pg_stat_database.xact_commit, less those of
#     an idle window as long). Target: at most 2 round trips.
#  3. 64 bundles from one address, never read: what each is answered (429 past the address's bound) and what the
#     kernel holds for them (/proc/net/sockstat). Target: at most the bound's worth of send buffers.
# Usage: scripts/bench.sh bundles [path/to/stickerd]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
work=$(mktemp -d /tmp/stickerd-bench-bundles.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
start_stickerd "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"
sql() { psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd "$@"; }
echo "Seeding 10,000 stickers with distinct small PNGs"
sql -f scripts/bench/catalog-10k.sql
sql -f scripts/bench/catalog-10k-distinct-small.sql
sql -c CHECKPOINT
sleep 1
python3 scripts/bench/bundles.py "$STICKERD_URL" "$STICKERD_PID" "$work/db"
